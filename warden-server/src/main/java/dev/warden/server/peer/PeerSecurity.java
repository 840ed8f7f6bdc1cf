package dev.warden.server.peer;

import dev.warden.server.config.QuorumMember;
import dev.warden.server.security.SecurityConfig;
import java.util.Collection;

/**
 * How members protect their connections to each other: TLS ({@link PeerTls}) and SASL
 * ({@link PeerSasl}). Built once per member from its security settings and shared by its peer
 * and election ports.
 */
public record PeerSecurity(PeerTls tls, PeerSasl sasl) {
    static final PeerSecurity NONE = new PeerSecurity(PeerTls.NONE, PeerSasl.OFF);

    /**
     * Reads the stores and the JAAS sections now (logging in from keytabs): a bad one stops the
     * member with the key named.
     */
    public static PeerSecurity of(SecurityConfig security, Collection<QuorumMember> members) {
        return new PeerSecurity(PeerTls.of(security), PeerSasl.of(security.quorumSasl(),
                security.sasl().jaasFile(), members));
    }
}
