package dev.warden.client;

import dev.warden.protocol.tls.TlsManagers;
import dev.warden.protocol.tls.TlsSettings;
import io.netty.handler.ssl.IdentityCipherSuiteFilter;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.util.AttributeKey;
import java.net.InetSocketAddress;
import javax.net.ssl.SSLException;

/** The client's TLS context: the JDK's PKIX trust checks, OpenSSL where netty-tcnative is present. */
final class ClientTls {
    /** The address a connection dials, set before it is initialised. */
    static final AttributeKey<InetSocketAddress> PEER = AttributeKey.valueOf("warden.peer");

    private ClientTls() {
    }

    static SslContext context(TlsSettings settings) {
        SslContextBuilder builder = SslContextBuilder.forClient()
                .sslProvider(OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK)
                .keyManager(TlsManagers.keyManagers(settings))
                .trustManager(TlsManagers.trustManager(settings))
                .protocols(settings.enabledProtocols())
                .endpointIdentificationAlgorithm(settings.hostnameVerification() ? "HTTPS" : null);
        if (!settings.cipherSuites().isEmpty()) {
            builder.ciphers(settings.cipherSuites(), IdentityCipherSuiteFilter.INSTANCE);
        }
        try {
            return builder.build();
        } catch (SSLException e) {
            throw new IllegalArgumentException("cannot set up TLS from the " + settings.prefix() + "* settings: "
                    + e.getMessage(), e);
        }
    }
}
