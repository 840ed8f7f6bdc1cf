package dev.warden.server.security;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Members authenticating each other with SASL, under ZooKeeper's {@code quorum.auth.*} keys.
 * A member dialling another is the SASL client (JAAS section {@code learnerLoginContext});
 * the member it dials is the SASL server ({@code serverLoginContext}), and the exchange is
 * mutual: each side proves itself to the other. {@code learnerRequireSasl}: this member sends
 * to no member that has not authenticated itself; {@code serverRequireSasl}: it takes messages
 * from no member that has not. With only {@code enableSasl} members authenticate where they
 * can and accept those who do not, which is the first step of turning it on without downtime.
 *
 * @param servicePrincipal the Kerberos principal of the member dialled, {@code _HOST} standing
 *                         for its host from the server line
 */
public record QuorumSaslSettings(boolean enabled, boolean learnerRequireSasl, boolean serverRequireSasl,
                                 String servicePrincipal, String learnerLoginContext, String serverLoginContext) {
    public static final String DEFAULT_PRINCIPAL = "zkquorum/localhost";
    public static final QuorumSaslSettings OFF = new QuorumSaslSettings(false, false, false, DEFAULT_PRINCIPAL,
            "QuorumLearner", "QuorumServer");

    Map<String, String> settings() {
        Map<String, String> s = new LinkedHashMap<>();
        if (enabled) {
            s.put("quorum.auth.enableSasl", "true");
            s.put("quorum.auth.learnerRequireSasl", Boolean.toString(learnerRequireSasl));
            s.put("quorum.auth.serverRequireSasl", Boolean.toString(serverRequireSasl));
            s.put("quorum.auth.kerberos.servicePrincipal", servicePrincipal);
            s.put("quorum.auth.learner.saslLoginContext", learnerLoginContext);
            s.put("quorum.auth.server.saslLoginContext", serverLoginContext);
        }
        return s;
    }
}
