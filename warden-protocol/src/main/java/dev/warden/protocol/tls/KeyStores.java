package dev.warden.protocol.tls;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.List;

/** Loads the key and trust stores that {@link StoreFile} describes, whatever their type. */
public final class KeyStores {
    private KeyStores() {
    }

    /** A store holding this side's key and certificate chain; the key's password is the store's. */
    public static KeyStore loadKeyStore(StoreFile store) {
        return load(store, true);
    }

    /** A store holding the certificates to trust. */
    public static KeyStore loadTrustStore(StoreFile store) {
        return load(store, false);
    }

    private static KeyStore load(StoreFile store, boolean needsKey) {
        try {
            if (store.type() == StoreFile.StoreType.PEM) {
                return fromPem(store, needsKey);
            }
            KeyStore keyStore = KeyStore.getInstance(store.type() == StoreFile.StoreType.JKS ? "JKS" : "PKCS12");
            try (InputStream in = Files.newInputStream(store.location())) {
                keyStore.load(in, store.password().isEmpty() ? null : store.password().chars());
            }
            return keyStore;
        } catch (NoSuchFileException missing) {
            throw new IllegalArgumentException(store.keyPrefix() + ".location: " + store.location()
                    + " does not exist");
        } catch (IOException | GeneralSecurityException e) {
            // Never the password itself: only which setting to look at.
            String reason = e.getCause() instanceof java.security.UnrecoverableKeyException
                    || String.valueOf(e.getMessage()).contains("password")
                    ? "wrong " + store.keyPrefix() + ".password?" : e.getMessage();
            throw new IllegalArgumentException("cannot load " + store + ": " + reason, e);
        }
    }

    private static KeyStore fromPem(StoreFile store, boolean needsKey) throws IOException, GeneralSecurityException {
        PemFiles.Contents pem = PemFiles.read(store);
        if (pem.certificates().isEmpty()) {
            throw new GeneralSecurityException(store.location() + " holds no CERTIFICATE block");
        }
        KeyStore keyStore = KeyStore.getInstance("PKCS12");
        keyStore.load(null, null);
        if (needsKey) {
            if (pem.key() == null) {
                throw new GeneralSecurityException(store.location() + " holds no PRIVATE KEY block: a key store in PEM"
                        + " needs the key and its certificate chain in one file");
            }
            List<X509Certificate> chain = pem.certificates();
            keyStore.setKeyEntry("key", pem.key(), store.password().chars(), chain.toArray(new Certificate[0]));
        } else {
            int i = 0;
            for (X509Certificate certificate : pem.certificates()) {
                keyStore.setCertificateEntry("ca-" + i++, certificate);
            }
        }
        return keyStore;
    }
}
