package dev.warden.server;

import dev.warden.server.config.ConfigException;
import dev.warden.server.net.ClientPortTls;
import dev.warden.server.security.NettyTls;
import dev.warden.server.security.ReloadingSslContext;
import dev.warden.server.security.SecurityConfig;

/**
 * What the client ports speak: {@code clientPort} plaintext, or TLS and plaintext with
 * {@code client.portUnification}; {@code secureClientPort}, if set, TLS only. Both TLS ports
 * share one context, re-read when its files change ({@code client.certReload}).
 */
record ClientPorts(ClientPortTls plainPort, ClientPortTls securePort) {
    /** How often a new TLS connection may look at the store files for changes. */
    static final long RELOAD_CHECK_INTERVAL_MS = 1_000;

    static ClientPorts of(SecurityConfig security) {
        if (!security.clientTlsEnabled()) {
            return new ClientPorts(ClientPortTls.PLAINTEXT, null);
        }
        ReloadingSslContext context;
        try {
            context = new ReloadingSslContext(security.clientTls(), NettyTls::forServer, security.certReload(),
                    RELOAD_CHECK_INTERVAL_MS, () -> System.nanoTime() / 1_000_000);
        } catch (IllegalArgumentException bad) {
            throw new ConfigException("ssl.keyStore.location", bad.getMessage(), bad);
        }
        return new ClientPorts(security.clientPortUnification() ? ClientPortTls.unified(context) : ClientPortTls.PLAINTEXT,
                security.secureClientPort() > 0 ? ClientPortTls.tlsOnly(context) : null);
    }
}
