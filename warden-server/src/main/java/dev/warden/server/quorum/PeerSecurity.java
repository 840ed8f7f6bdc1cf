package dev.warden.server.quorum;

import dev.warden.server.security.SecurityConfig;

/**
 * How members protect their connections to each other: TLS ({@link PeerTls}). Built once per
 * member from its security settings and shared by its peer and election ports.
 */
record PeerSecurity(PeerTls tls) {
    static final PeerSecurity NONE = new PeerSecurity(PeerTls.NONE);

    /** Reads the stores now: a bad one stops the member with the key named. */
    static PeerSecurity of(SecurityConfig security) {
        return new PeerSecurity(PeerTls.of(security));
    }
}
