package dev.warden.server.security;

import java.io.IOException;
import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.CRLDistPoint;
import org.bouncycastle.asn1.x509.CRLReason;
import org.bouncycastle.asn1.x509.DistributionPoint;
import org.bouncycastle.asn1.x509.DistributionPointName;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.X509v2CRLBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A certificate authority made at test time, in a temporary directory: it issues server and
 * client certificates (valid, expired, not yet valid, with chosen names), revokes them in its
 * CRL (every certificate it issues names that CRL file as its distribution point), and writes
 * key and trust stores as JKS, PKCS12 or PEM. Nothing here is committed or reused between runs.
 */
public final class TestPki {
    public static final String PASSWORD = "test-store-secret";
    private static final AtomicLong SERIALS = new AtomicLong(System.nanoTime());

    public record Issued(String name, KeyPair keys, X509Certificate certificate, TestPki issuer) {
    }

    private final Path dir;
    private final String caName;
    private final KeyPair caKeys;
    private final X509Certificate caCertificate;
    private final Path crlFile;
    private final List<BigInteger> revoked = new ArrayList<>();

    private TestPki(Path dir, String caName) throws GeneralSecurityException, IOException {
        this.dir = Files.createDirectories(dir);
        this.caName = caName;
        this.caKeys = newKeys();
        this.crlFile = dir.resolve(caName + ".crl");
        Instant now = Instant.now();
        X500Name subject = new X500Name("CN=" + caName + ",O=Warden Test");
        JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(subject, serial(),
                Date.from(now.minus(Duration.ofDays(1))), Date.from(now.plus(Duration.ofDays(30))), subject,
                caKeys.getPublic());
        builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
        builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
        this.caCertificate = sign(builder.build(signer(caKeys.getPrivate())));
        writeCrl();
    }

    public static TestPki create(Path dir, String caName) {
        try {
            return new TestPki(dir, caName);
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException(e);
        }
    }

    public X509Certificate caCertificate() {
        return caCertificate;
    }

    public Path dir() {
        return dir;
    }

    /** A certificate valid from yesterday for 30 days, naming 127.0.0.1 and localhost. */
    public Issued issue(String commonName) {
        return issue(commonName, List.of("localhost"), List.of("127.0.0.1"), Instant.now().minus(Duration.ofDays(1)),
                Instant.now().plus(Duration.ofDays(30)), List.of());
    }

    /**
     * A certificate for {@code subject} (a CN, or a whole DN when it holds '='), with these
     * DNS and IP alternative names, URIs, and validity.
     */
    public Issued issue(String subject, List<String> dnsNames, List<String> ipAddresses, Instant notBefore,
                        Instant notAfter, List<String> uris) {
        try {
            KeyPair keys = newKeys();
            X500Name name = new X500Name(subject.contains("=") ? subject : "CN=" + subject + ",O=Warden Test");
            JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(caCertificate, serial(),
                    Date.from(notBefore), Date.from(notAfter), name, keys.getPublic());
            List<GeneralName> alternatives = new ArrayList<>();
            dnsNames.forEach(dns -> alternatives.add(new GeneralName(GeneralName.dNSName, dns)));
            ipAddresses.forEach(ip -> alternatives.add(new GeneralName(GeneralName.iPAddress, ip)));
            uris.forEach(uri -> alternatives.add(new GeneralName(GeneralName.uniformResourceIdentifier, uri)));
            if (!alternatives.isEmpty()) {
                builder.addExtension(Extension.subjectAlternativeName, false,
                        new GeneralNames(alternatives.toArray(new GeneralName[0])));
            }
            GeneralName crlLocation = new GeneralName(GeneralName.uniformResourceIdentifier,
                    crlFile.toUri().toString());
            builder.addExtension(Extension.cRLDistributionPoints, false, new CRLDistPoint(new DistributionPoint[] {
                new DistributionPoint(new DistributionPointName(new GeneralNames(crlLocation)), null, null)}));
            X509Certificate certificate = sign(builder.build(signer(caKeys.getPrivate())));
            return new Issued(subject, keys, certificate, this);
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Adds the certificate to this CA's revocation list and rewrites the list. */
    public void revoke(Issued issued) {
        revoked.add(issued.certificate().getSerialNumber());
        try {
            writeCrl();
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException(e);
        }
    }

    public enum StoreType { JKS, PKCS12, PEM }

    /** A key store holding the issued key and its chain; returns its path. */
    public Path keyStore(Issued issued, StoreType type) {
        Path file = dir.resolve(issued.name().replaceAll("[^A-Za-z0-9]", "_") + "-" + SERIALS.incrementAndGet()
                + extension(type));
        Certificate[] chain = {issued.certificate(), caCertificate};
        write(file, type, store -> store.setKeyEntry("key", issued.keys().getPrivate(), PASSWORD.toCharArray(),
                chain), pemOf(issued.keys().getPrivate(), chain));
        return file;
    }

    /** A trust store holding this CA's certificate. */
    public Path trustStore(StoreType type) {
        Path file = dir.resolve(caName + "-trust-" + SERIALS.incrementAndGet() + extension(type));
        write(file, type, store -> store.setCertificateEntry("ca", caCertificate), pemOf(null,
                new Certificate[] {caCertificate}));
        return file;
    }

    private interface Filler {
        void fill(KeyStore store) throws GeneralSecurityException;
    }

    private static void write(Path file, StoreType type, Filler filler, String pem) {
        try {
            if (type == StoreType.PEM) {
                Files.writeString(file, pem, StandardCharsets.US_ASCII);
                return;
            }
            KeyStore store = KeyStore.getInstance(type.name());
            store.load(null, null);
            filler.fill(store);
            try (OutputStream out = Files.newOutputStream(file)) {
                store.store(out, PASSWORD.toCharArray());
            }
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String pemOf(PrivateKey key, Certificate[] chain) {
        StringBuilder pem = new StringBuilder();
        try {
            if (key != null) {
                pem.append(block("PRIVATE KEY", key.getEncoded()));
            }
            for (Certificate certificate : chain) {
                pem.append(block("CERTIFICATE", certificate.getEncoded()));
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
        return pem.toString();
    }

    private static String block(String kind, byte[] der) {
        String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
        return "-----BEGIN " + kind + "-----\n" + body + "\n-----END " + kind + "-----\n";
    }

    private static String extension(StoreType type) {
        return switch (type) {
            case JKS -> ".jks";
            case PKCS12 -> ".p12";
            case PEM -> ".pem";
        };
    }

    private void writeCrl() throws GeneralSecurityException, IOException {
        Date now = new Date();
        X509v2CRLBuilder builder = new X509v2CRLBuilder(
                X500Name.getInstance(caCertificate.getSubjectX500Principal().getEncoded()), now);
        builder.setNextUpdate(Date.from(Instant.now().plus(Duration.ofDays(7))));
        for (BigInteger serial : revoked) {
            builder.addCRLEntry(serial, now, CRLReason.keyCompromise);
        }
        byte[] der = builder.build(signer(caKeys.getPrivate())).getEncoded();
        Path temporary = Files.createTempFile(dir, "crl", ".tmp");
        Files.write(temporary, der);
        Files.move(temporary, crlFile, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    private static KeyPair newKeys() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(256);
        return generator.generateKeyPair();
    }

    private static BigInteger serial() {
        return BigInteger.valueOf(SERIALS.incrementAndGet());
    }

    private static ContentSigner signer(PrivateKey key) {
        try {
            return new JcaContentSignerBuilder("SHA256withECDSA").build(key);
        } catch (OperatorCreationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static X509Certificate sign(X509CertificateHolder holder) throws GeneralSecurityException {
        return new JcaX509CertificateConverter().getCertificate(holder);
    }
}
