package dev.warden.protocol.tls;

import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.Security;
import java.security.cert.PKIXBuilderParameters;
import java.security.cert.X509CertSelector;
import javax.net.ssl.CertPathTrustManagerParameters;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/** The JDK key and trust managers for one side's {@link TlsSettings}. */
public final class TlsManagers {
    private TlsManagers() {
    }

    /** Null when the settings name no key store (a client without a certificate). */
    public static KeyManagerFactory keyManagers(TlsSettings settings) {
        StoreFile store = settings.keyStore();
        if (store == null) {
            return null;
        }
        KeyStore keyStore = KeyStores.loadKeyStore(store);
        try {
            KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            factory.init(keyStore, store.password().chars());
            return factory;
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot use the key in " + store + ": wrong " + store.keyPrefix()
                    + ".password, or no private key in it", e);
        }
    }

    /**
     * A PKIX trust manager over the trust store (the JDK's CAs when none is named), checking
     * revocation when {@code crl} or {@code ocsp} is set. As in ZooKeeper those switch on the
     * JDK's own revocation checking, which is JVM-wide: {@code ocsp} sets the security
     * property {@code ocsp.enable}, {@code crl} the system property
     * {@code com.sun.security.enableCRLDP} (certificates' CRL distribution points are fetched).
     */
    public static X509ExtendedTrustManager trustManager(TlsSettings settings) {
        StoreFile store = settings.trustStore();
        KeyStore trustStore = store == null ? null : KeyStores.loadTrustStore(store);
        try {
            TrustManagerFactory factory = TrustManagerFactory.getInstance("PKIX");
            if (settings.crl() || settings.ocsp()) {
                if (settings.ocsp()) {
                    Security.setProperty("ocsp.enable", "true");
                }
                if (settings.crl()) {
                    System.setProperty("com.sun.security.enableCRLDP", "true");
                }
                KeyStore anchors = trustStore != null ? trustStore : defaultCaStore();
                PKIXBuilderParameters parameters = new PKIXBuilderParameters(anchors, new X509CertSelector());
                parameters.setRevocationEnabled(true);
                factory.init(new CertPathTrustManagerParameters(parameters));
            } else {
                factory.init(trustStore);
            }
            for (TrustManager manager : factory.getTrustManagers()) {
                if (manager instanceof X509ExtendedTrustManager x509) {
                    return x509;
                }
            }
            throw new IllegalStateException("the JDK's PKIX trust manager factory made no X509 trust manager");
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot use the certificates in "
                    + (store == null ? "the JDK's default trust store" : store) + ": " + e.getMessage(), e);
        }
    }

    private static KeyStore defaultCaStore() throws GeneralSecurityException {
        String home = System.getProperty("java.home");
        java.nio.file.Path cacerts = java.nio.file.Path.of(home, "lib", "security", "cacerts");
        KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
        try (var in = java.nio.file.Files.newInputStream(cacerts)) {
            store.load(in, null);
        } catch (java.io.IOException e) {
            throw new GeneralSecurityException("cannot read the JDK's CA certificates " + cacerts, e);
        }
        return store;
    }
}
