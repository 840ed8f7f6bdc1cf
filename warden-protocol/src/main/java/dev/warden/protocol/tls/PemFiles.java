package dev.warden.protocol.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Cipher;
import javax.crypto.EncryptedPrivateKeyInfo;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * Reads PEM files as ZooKeeper's PEM stores hold them: certificates, and for a key store one
 * PKCS#8 private key, plain ({@code PRIVATE KEY}) or encrypted with the store's password
 * ({@code ENCRYPTED PRIVATE KEY}).
 */
final class PemFiles {
    private static final Pattern BLOCK = Pattern.compile(
            "-----BEGIN ([A-Z0-9 ]+)-----\\s*([A-Za-z0-9+/=\\s]+?)\\s*-----END \\1-----");
    private static final List<String> KEY_ALGORITHMS = List.of("RSA", "EC", "Ed25519", "Ed448", "DSA");

    record Contents(List<X509Certificate> certificates, PrivateKey key) {
    }

    private PemFiles() {
    }

    static Contents read(StoreFile store) throws IOException, GeneralSecurityException {
        String text = Files.readString(store.location(), StandardCharsets.US_ASCII);
        List<X509Certificate> certificates = new ArrayList<>();
        PrivateKey key = null;
        CertificateFactory x509 = CertificateFactory.getInstance("X.509");
        Matcher block = BLOCK.matcher(text);
        while (block.find()) {
            String kind = block.group(1);
            byte[] der = Base64.getMimeDecoder().decode(block.group(2));
            switch (kind) {
                case "CERTIFICATE" -> certificates.add(
                        (X509Certificate) x509.generateCertificate(new ByteArrayInputStream(der)));
                case "PRIVATE KEY" -> key = privateKey(store, der);
                case "ENCRYPTED PRIVATE KEY" -> key = privateKey(store, decrypt(store, der));
                case "RSA PRIVATE KEY", "EC PRIVATE KEY", "DSA PRIVATE KEY" -> throw new GeneralSecurityException(
                        store.location() + " holds a " + kind + " (PKCS#1/SEC1); convert it to PKCS#8, e.g. with"
                        + " 'openssl pkcs8 -topk8 -in key.pem -out key8.pem' (add -nocrypt for an unencrypted key)");
                default -> {
                    // parameters and other blocks a PEM bundle may carry are not needed
                }
            }
        }
        return new Contents(certificates, key);
    }

    private static byte[] decrypt(StoreFile store, byte[] der) throws IOException, GeneralSecurityException {
        if (store.password().isEmpty()) {
            throw new GeneralSecurityException(store.location() + " holds an encrypted private key: set "
                    + store.keyPrefix() + ".password or " + store.keyPrefix() + ".passwordPath");
        }
        EncryptedPrivateKeyInfo info = new EncryptedPrivateKeyInfo(der);
        String algorithm = info.getAlgParameters() != null ? info.getAlgParameters().toString() : info.getAlgName();
        SecretKeyFactory factory = SecretKeyFactory.getInstance(algorithm);
        Cipher cipher = Cipher.getInstance(algorithm);
        PBEKeySpec spec = new PBEKeySpec(store.password().chars());
        try {
            cipher.init(Cipher.DECRYPT_MODE, factory.generateSecret(spec), info.getAlgParameters());
            return info.getKeySpec(cipher).getEncoded();
        } catch (GeneralSecurityException wrongPassword) {
            throw new GeneralSecurityException("cannot decrypt the private key in " + store.location()
                    + ": wrong " + store.keyPrefix() + ".password?");
        } finally {
            spec.clearPassword();
        }
    }

    private static PrivateKey privateKey(StoreFile store, byte[] pkcs8) throws GeneralSecurityException {
        for (String algorithm : KEY_ALGORITHMS) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
            } catch (GeneralSecurityException notThisOne) {
                // try the next algorithm
            }
        }
        throw new GeneralSecurityException("the private key in " + store.location() + " is of no supported algorithm"
                + " " + KEY_ALGORITHMS);
    }
}
