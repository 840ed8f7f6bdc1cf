package dev.warden.server.admin;

import java.util.List;
import java.util.Map;

/**
 * One AdminServer command: its primary name, the other names it answers to (ZooKeeper's four-
 * letter word among them), whether it needs the caller to authenticate, and what it answers.
 */
record AdminCommand(String name, List<String> aliases, boolean needsAuth, Body body) {
    /** Fills {@code response} with the command's fields; returns an error message, or null. */
    @FunctionalInterface
    interface Body {
        String run(Map<String, String> parameters, Map<String, Object> response) throws Exception;
    }

    static AdminCommand of(String name, List<String> aliases, Body body) {
        return new AdminCommand(name, aliases, false, body);
    }
}
