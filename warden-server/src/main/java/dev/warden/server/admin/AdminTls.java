package dev.warden.server.admin;

import dev.warden.server.AdminTlsSettings;
import dev.warden.server.ConfigException;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;

/**
 * The AdminServer's TLS context, from the {@code ssl.quorum.keyStore.*} and
 * {@code ssl.quorum.trustStore.*} stores as ZooKeeper's AdminServer reads them (JKS, PKCS12, or a
 * PEM file holding the key and its certificate chain). A client certificate is required with
 * {@code admin.needClientAuth=true}; otherwise, when a trust store is set, it is asked for but
 * not required, so a browser holding one may log in to the console with it and others still
 * reach the page. Either way the certificate must chain to the trust store: the handshake fails
 * otherwise.
 */
public final class AdminTls {
    private AdminTls() {
    }

    /** The server context; a store that cannot be read is a {@link ConfigException} naming its key. */
    public static SslContext serverContext(AdminTlsSettings tls) {
        AdminTlsSettings.Store keys = tls.keyStore();
        SslContextBuilder builder;
        if (keys.effectiveType().equals("PEM")) {
            String password = password(keys);
            builder = SslContextBuilder.forServer(keys.location().toFile(), keys.location().toFile(),
                    password == null || password.isEmpty() ? null : password);
        } else {
            try {
                KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                factory.init(load(keys), chars(password(keys)));
                builder = SslContextBuilder.forServer(factory);
            } catch (GeneralSecurityException e) {
                throw unreadable(keys, e);
            }
        }
        AdminTlsSettings.Store trust = tls.trustStore();
        if (trust.location() != null) {
            if (trust.effectiveType().equals("PEM")) {
                builder.trustManager(trust.location().toFile());
            } else {
                try {
                    TrustManagerFactory factory = TrustManagerFactory.getInstance(
                            TrustManagerFactory.getDefaultAlgorithm());
                    factory.init(load(trust));
                    builder.trustManager(factory);
                } catch (GeneralSecurityException e) {
                    throw unreadable(trust, e);
                }
            }
        }
        builder.clientAuth(tls.needClientAuth() ? ClientAuth.REQUIRE
                : trust.location() != null ? ClientAuth.OPTIONAL : ClientAuth.NONE);
        // the JDK's engine: the admin port's few connections gain nothing from OpenSSL
        builder.sslProvider(SslProvider.JDK);
        try {
            return builder.build();
        } catch (IOException | RuntimeException e) {
            throw new ConfigException(keys.prefix() + "location", "cannot set up HTTPS for the AdminServer from "
                    + keys + (trust.location() != null ? " and " + trust : "") + ": " + e.getMessage(), e);
        }
    }

    private static KeyStore load(AdminTlsSettings.Store store) {
        try (InputStream in = Files.newInputStream(store.location())) {
            KeyStore keyStore = KeyStore.getInstance(store.effectiveType());
            keyStore.load(in, chars(password(store)));
            return keyStore;
        } catch (IOException | GeneralSecurityException e) {
            throw unreadable(store, e);
        }
    }

    /** The store's password: the passwordPath file's content (without a final line break) wins over password. */
    private static String password(AdminTlsSettings.Store store) {
        if (store.passwordPath() == null) {
            return store.password();
        }
        try {
            return Files.readString(store.passwordPath(), StandardCharsets.UTF_8).replaceFirst("\\r?\\n$", "");
        } catch (IOException e) {
            throw new ConfigException(store.prefix() + "passwordPath", "cannot read " + store.prefix()
                    + "passwordPath=" + store.passwordPath() + ": " + e, e);
        }
    }

    private static char[] chars(String password) {
        return password == null ? new char[0] : password.toCharArray();
    }

    private static ConfigException unreadable(AdminTlsSettings.Store store, Exception e) {
        return new ConfigException(store.prefix() + "location", "cannot read " + store + " as "
                + store.effectiveType() + ": " + e.getMessage() + " (check the file, " + store.prefix() + "type and "
                + store.prefix() + "password)", e);
    }
}
