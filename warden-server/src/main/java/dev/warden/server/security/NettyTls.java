package dev.warden.server.security;

import dev.warden.protocol.tls.TlsManagers;
import dev.warden.protocol.tls.TlsSettings;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.IdentityCipherSuiteFilter;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLException;

/**
 * Netty {@link SslContext}s from {@link TlsSettings}: OpenSSL (netty-tcnative's BoringSSL)
 * where its native library loads, the JDK's TLS otherwise. Both use the JDK's PKIX trust
 * manager, so trust, revocation and host name checks are the same whichever engine runs.
 */
public final class NettyTls {
    private NettyTls() {
    }

    /** The engine in use: "OpenSSL" or "JDK". */
    public static String engine() {
        return provider() == SslProvider.OPENSSL ? "OpenSSL" : "JDK";
    }

    private static SslProvider provider() {
        return OpenSsl.isAvailable() && !Boolean.getBoolean("warden.tls.jdk") ? SslProvider.OPENSSL : SslProvider.JDK;
    }

    /** A server's context: needs a key store. */
    public static SslContext forServer(TlsSettings settings) {
        KeyManagerFactory keys = TlsManagers.keyManagers(settings);
        if (keys == null) {
            throw new IllegalArgumentException(settings.prefix() + "keyStore.location is not set: a TLS server"
                    + " needs a certificate and key to present");
        }
        SslContextBuilder builder = SslContextBuilder.forServer(keys)
                .clientAuth(switch (settings.clientAuth()) {
                    case NONE -> ClientAuth.NONE;
                    case WANT -> ClientAuth.OPTIONAL;
                    case NEED -> ClientAuth.REQUIRE;
                });
        return build(builder, settings);
    }

    /** A dialling side's context: a key store only if it has a certificate to present. */
    public static SslContext forClient(TlsSettings settings) {
        SslContextBuilder builder = SslContextBuilder.forClient().keyManager(TlsManagers.keyManagers(settings));
        if (settings.hostnameVerification()) {
            builder.endpointIdentificationAlgorithm("HTTPS");
        } else {
            builder.endpointIdentificationAlgorithm(null);
        }
        return build(builder, settings);
    }

    private static SslContext build(SslContextBuilder builder, TlsSettings settings) {
        builder.sslProvider(provider())
                .trustManager(TlsManagers.trustManager(settings))
                .protocols(settings.enabledProtocols());
        if (!settings.cipherSuites().isEmpty()) {
            builder.ciphers(settings.cipherSuites(), IdentityCipherSuiteFilter.INSTANCE);
        }
        try {
            return builder.build();
        } catch (SSLException | RuntimeException e) {
            throw new IllegalArgumentException("cannot set up TLS from the " + settings.prefix() + "* settings: "
                    + e.getMessage(), e);
        }
    }
}
