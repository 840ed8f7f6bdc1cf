package dev.warden.server.security;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * ZooKeeper's {@code enforce.auth.enabled} with {@code enforce.auth.schemes}, and
 * {@code sessionRequireClientSASLAuth} (the same with the scheme {@code sasl}): a connection
 * must hold an identity of one of the schemes before anything but authentication is served.
 */
public record AuthEnforcement(boolean enabled, Set<String> schemes, boolean requireSasl) {
    public static final AuthEnforcement OFF = new AuthEnforcement(false, Set.of(), false);

    public AuthEnforcement {
        schemes = Set.copyOf(schemes);
    }

    /** Whether a connection must authenticate before it is served. */
    public boolean active() {
        return enabled || requireSasl;
    }

    /** The schemes of which one identity is enough. */
    public Set<String> requiredSchemes() {
        if (requireSasl && !enabled) {
            return Set.of("sasl");
        }
        if (requireSasl) {
            java.util.Set<String> all = new java.util.TreeSet<>(schemes);
            all.add("sasl");
            return all;
        }
        return schemes;
    }

    Map<String, String> settings() {
        Map<String, String> s = new LinkedHashMap<>();
        if (enabled) {
            s.put("enforce.auth.enabled", "true");
            s.put("enforce.auth.schemes", String.join(",", new java.util.TreeSet<>(schemes)));
        }
        if (requireSasl) {
            s.put("sessionRequireClientSASLAuth", "true");
        }
        return s;
    }
}
