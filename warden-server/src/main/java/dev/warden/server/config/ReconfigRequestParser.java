package dev.warden.server.config;

import dev.warden.protocol.ReconfigRequest;
import java.util.Properties;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Turns a {@code reconfig} request into the configuration it asks for, as ZooKeeper reads one:
 * incremental ({@code joiningServers}: comma-separated {@code server.N=...} lines, a known id's
 * line replacing its old one, which changes its addresses or role; {@code leavingServers}:
 * comma-separated ids) or non-incremental ({@code newMembers}: the whole new list, with
 * {@code group.N}/{@code weight.N} lines for a hierarchical quorum). The result gets every check a
 * configuration file gets; anything wrong is a {@link ConfigException} naming the line.
 */
public final class ReconfigRequestParser {
    private ReconfigRequestParser() {
    }

    /**
     * The configuration {@code request} makes of {@code current}; its version is left as current's.
     * Member lines with several addresses (a|b) are refused unless {@code multiAddressEnabled}.
     */
    public static EnsembleConfig apply(EnsembleConfig current, ReconfigRequest request, boolean multiAddressEnabled) {
        EnsembleConfig next = apply(current, request);
        MemberLines.refuseSeveralAddresses(next.members(), multiAddressEnabled);
        return next;
    }

    /** As above, with every member line's addresses accepted. */
    public static EnsembleConfig apply(EnsembleConfig current, ReconfigRequest request) {
        boolean incremental = present(request.joiningServers()) || present(request.leavingServers());
        boolean whole = present(request.newMembers());
        if (incremental && whole) {
            throw new ConfigException("reconfig", "a reconfig gives either joining and leaving servers (incremental)"
                    + " or the new member list (non-incremental), not both");
        }
        if (!incremental && !whole) {
            throw new ConfigException("reconfig", "the reconfig names no joining or leaving server and no new member"
                    + " list: an empty configuration");
        }
        if (whole) {
            Properties lines = lines(request.newMembers(), "newMembers");
            if (lines.isEmpty()) {
                throw new ConfigException("newMembers", "the new member list is empty");
            }
            return EnsembleConfig.fromProperties(lines, current.version(), "the reconfig's new member list");
        }
        if (current.groups().isHierarchical()) {
            throw new ConfigException("reconfig", "incremental reconfig is not supported with a hierarchical quorum"
                    + " (group.N/weight.N): give the whole new member list, groups and weights included");
        }
        SortedMap<Long, QuorumMember> members = new TreeMap<>(current.members());
        if (present(request.leavingServers())) {
            for (String item : request.leavingServers().split(",")) {
                String text = item.trim();
                if (text.isEmpty()) {
                    continue;
                }
                long id;
                try {
                    id = Long.parseLong(text);
                } catch (NumberFormatException bad) {
                    throw ConfigException.invalid("leavingServers", request.leavingServers(),
                            "must be server ids separated by commas, not '" + text + "'");
                }
                if (members.remove(id) == null) {
                    throw new ConfigException("leavingServers", "server " + id + " is not a member of configuration 0x"
                            + Long.toHexString(current.version()) + " " + current.members().keySet());
                }
            }
        }
        if (present(request.joiningServers())) {
            Properties lines = lines(request.joiningServers(), "joiningServers");
            for (String key : lines.stringPropertyNames()) {
                if (!MemberLines.isServerKey(key)) {
                    throw new ConfigException(key, "joiningServers may hold only server.N lines, not '" + key + "'");
                }
            }
            members.putAll(MemberLines.parse(lines));
        }
        if (members.isEmpty()) {
            throw new ConfigException("leavingServers", "the reconfig removes every member: an empty configuration");
        }
        Properties all = new Properties();
        members.values().forEach(m -> all.setProperty("server." + m.id(), m.toSpec()));
        return EnsembleConfig.fromProperties(all, current.version(), "the configuration the reconfig makes");
    }

    private static boolean present(String text) {
        return text != null && !text.isBlank();
    }

    /** Comma- or newline-separated {@code key=value} items (as zkCli sends them). */
    private static Properties lines(String text, String field) {
        Properties lines = new Properties();
        for (String item : text.split("[,\\n]")) {
            String line = item.trim();
            if (line.isEmpty() || line.startsWith("version=")) {
                continue;
            }
            int eq = line.indexOf('=');
            if (eq <= 0) {
                throw ConfigException.invalid(field, text, "each item must be key=value (server.N=host:peerPort:"
                        + "electionPort[:role][;[clientHost:]clientPort]), not '" + line + "'");
            }
            String key = line.substring(0, eq).trim();
            if (lines.containsKey(key)) {
                throw new ConfigException(key, field + " gives " + key + " twice");
            }
            lines.setProperty(key, line.substring(eq + 1).trim());
        }
        return lines;
    }
}
