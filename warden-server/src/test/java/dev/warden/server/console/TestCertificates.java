package dev.warden.server.console;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * Key pairs and self-signed certificates made at test time with the JDK's keytool (PKCS12
 * stores, password {@link #PASSWORD}), and TLS clients presenting them.
 */
final class TestCertificates {
    static final String PASSWORD = "changeit";

    private final Path dir;

    TestCertificates(Path dir) {
        this.dir = dir;
    }

    /** A keytool run making a key pair; {@link #await} waits for it and gives the store. */
    record Pending(Process keytool, Path store) {
        Path await() throws Exception {
            String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!keytool.waitFor(60, TimeUnit.SECONDS) || keytool.exitValue() != 0) {
                throw new IllegalStateException("keytool failed: " + output);
            }
            return store;
        }
    }

    /** A new PKCS12 store {@code name}.p12 holding an EC key pair and its self-signed certificate. */
    Path keyPair(String name, String subject, String subjectAltNames) throws Exception {
        return startKeyPair(name, subject, subjectAltNames).await();
    }

    /** As {@link #keyPair}, started and not waited for, so several keytool runs overlap. */
    Pending startKeyPair(String name, String subject, String subjectAltNames) throws Exception {
        Path store = dir.resolve(name + ".p12");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool")
                        .toString(), "-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", subject, "-validity", "2", "-keystore", store.toString(), "-storetype", "PKCS12",
                "-storepass", PASSWORD));
        if (subjectAltNames != null) {
            command.addAll(List.of("-ext", "san=" + subjectAltNames));
        }
        return new Pending(new ProcessBuilder(command).redirectErrorStream(true).start(), store);
    }

    /** A PKCS12 trust store {@code name}.p12 holding the certificates of the given key stores. */
    Path trustStore(String name, Path... keyStores) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        for (Path keyStore : keyStores) {
            trust.setCertificateEntry(keyStore.getFileName().toString(), certificate(keyStore));
        }
        Path file = dir.resolve(name + ".p12");
        try (OutputStream out = Files.newOutputStream(file)) {
            trust.store(out, PASSWORD.toCharArray());
        }
        return file;
    }

    /**
     * {@code keyStore}'s private key (PKCS8) and certificate in one PEM file {@code name}.pem, as
     * ZooKeeper's PEM key stores hold them; with {@code withKey} false, the certificate alone
     * (a PEM trust store).
     */
    Path pem(String name, Path keyStore, boolean withKey) throws Exception {
        KeyStore store = load(keyStore);
        String alias = store.aliases().nextElement();
        StringBuilder text = new StringBuilder();
        if (withKey) {
            text.append(pemBlock("PRIVATE KEY", store.getKey(alias, PASSWORD.toCharArray()).getEncoded()));
        }
        text.append(pemBlock("CERTIFICATE", store.getCertificate(alias).getEncoded()));
        return Files.writeString(dir.resolve(name + ".pem"), text, StandardCharsets.US_ASCII);
    }

    private static String pemBlock(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    static X509Certificate certificate(Path keyStore) throws Exception {
        KeyStore store = load(keyStore);
        return (X509Certificate) store.getCertificate(store.aliases().nextElement());
    }

    /** An HTTP client trusting {@code serverStore}'s certificate and presenting {@code clientStore}'s (null for none). */
    static HttpClient client(Path serverStore, Path clientStore) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("server", certificate(serverStore));
        TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trustManagers.init(trust);
        KeyManagerFactory keyManagers = null;
        if (clientStore != null) {
            keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keyManagers.init(load(clientStore), PASSWORD.toCharArray());
        }
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(keyManagers == null ? null : keyManagers.getKeyManagers(), trustManagers.getTrustManagers(), null);
        return HttpClient.newBuilder().sslContext(tls).connectTimeout(Duration.ofSeconds(5)).build();
    }

    /**
     * As {@link #client}, presenting {@code clientStore}'s certificate whatever authorities the
     * server names, as a client trying its luck would.
     */
    static HttpClient clientPresentingAlways(Path serverStore, Path clientStore) throws Exception {
        KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keyManagers.init(load(clientStore), PASSWORD.toCharArray());
        X509ExtendedKeyManager keys = (X509ExtendedKeyManager) keyManagers.getKeyManagers()[0];
        String alias = load(clientStore).aliases().nextElement();
        X509ExtendedKeyManager always = new X509ExtendedKeyManager() {
            @Override
            public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
                return alias;
            }

            @Override
            public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
                return alias;
            }

            @Override
            public String[] getClientAliases(String keyType, Principal[] issuers) {
                return new String[] {alias};
            }

            @Override
            public String[] getServerAliases(String keyType, Principal[] issuers) {
                return keys.getServerAliases(keyType, issuers);
            }

            @Override
            public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
                return keys.chooseServerAlias(keyType, issuers, socket);
            }

            @Override
            public X509Certificate[] getCertificateChain(String name) {
                return keys.getCertificateChain(name);
            }

            @Override
            public PrivateKey getPrivateKey(String name) {
                return keys.getPrivateKey(name);
            }
        };
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("server", certificate(serverStore));
        TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trustManagers.init(trust);
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(new KeyManager[] {always}, trustManagers.getTrustManagers(), null);
        return HttpClient.newBuilder().sslContext(tls).connectTimeout(Duration.ofSeconds(5)).build();
    }

    private static KeyStore load(Path file) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            store.load(in, PASSWORD.toCharArray());
        }
        return store;
    }
}
