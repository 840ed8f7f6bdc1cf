package dev.warden.server.security;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * SASL on the client port, as ZooKeeper configures it: the JAAS file
 * ({@code java.security.auth.login.config}) and its section for the server
 * ({@code sasl.serverconfig}, default {@code Server}) holding either DIGEST-MD5 users
 * ({@code user_NAME="password"}) or a Kerberos keytab login; how a Kerberos principal becomes
 * the {@code sasl} identity ({@code kerberos.removeHostFromPrincipal},
 * {@code kerberos.removeRealmFromPrincipal}); the SASL identity that is super
 * ({@code superUser}); and whether a client whose SASL exchange fails may go on unauthenticated
 * ({@code allowSaslFailedClients}).
 *
 * @param jaasFile null when no JAAS file is configured: SASL requests are then refused
 */
public record SaslSettings(Path jaasFile, String serverSection, boolean removeHostFromPrincipal,
                           boolean removeRealmFromPrincipal, String superUser, boolean allowFailedClients) {
    public static final String DEFAULT_SECTION = "Server";
    public static final SaslSettings NONE = new SaslSettings(null, DEFAULT_SECTION, false, false, null, false);

    public boolean configured() {
        return jaasFile != null;
    }

    Map<String, String> settings() {
        Map<String, String> s = new LinkedHashMap<>();
        if (jaasFile != null) {
            s.put("java.security.auth.login.config", jaasFile.toString());
        }
        if (!serverSection.equals(DEFAULT_SECTION)) {
            s.put("sasl.serverconfig", serverSection);
        }
        if (removeHostFromPrincipal) {
            s.put("kerberos.removeHostFromPrincipal", "true");
        }
        if (removeRealmFromPrincipal) {
            s.put("kerberos.removeRealmFromPrincipal", "true");
        }
        if (superUser != null) {
            s.put("superUser", superUser);
        }
        if (allowFailedClients) {
            s.put("allowSaslFailedClients", "true");
        }
        return s;
    }
}
