package dev.warden.bench.compare;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A key pair and certificate made at run time for a TLS deployment, with the JDK's keytool: one
 * self-signed certificate naming 127.0.0.1 and localhost, in a PKCS12 key store, and the same
 * certificate alone in a PKCS12 trust store. Every member (client port and quorum) and the load
 * client use both, so each side trusts the other and host name checks pass on loopback. The
 * password is random per run; nothing here is meant to outlive the run's work directory.
 *
 * @param keyStore   the PKCS12 key store (key and certificate)
 * @param trustStore the PKCS12 trust store (the certificate)
 * @param password   the password of both stores
 */
public record TlsMaterial(Path keyStore, Path trustStore, String password) {
    /** RSA 2048 is what ZooKeeper deployments commonly use; both servers get the same key. */
    private static final String KEY_ALGORITHM = "RSA";
    private static final int KEY_BITS = 2048;
    private static final long KEYTOOL_TIMEOUT_MS = 60_000;

    /** Makes the stores under {@code dir} (created if missing) with {@code java}'s keytool. */
    public static TlsMaterial create(Path dir, Path javaExecutable) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Path keytool = javaExecutable.resolveSibling(javaExecutable.getFileName().toString().endsWith(".exe")
                ? "keytool.exe" : "keytool");
        if (!Files.isExecutable(keytool)) {
            throw new IOException("no keytool next to " + javaExecutable + " to make the TLS certificates;"
                    + " run the benchmark on a full JDK");
        }
        byte[] secret = new byte[16];
        new SecureRandom().nextBytes(secret);
        String password = HexFormat.of().formatHex(secret);
        Path keyStore = dir.resolve("bench-key.p12");
        Path trustStore = dir.resolve("bench-trust.p12");
        Path certificate = dir.resolve("bench-cert.pem");
        for (Path old : List.of(keyStore, trustStore, certificate)) {
            Files.deleteIfExists(old);
        }
        run(dir, List.of(keytool.toString(), "-genkeypair", "-alias", "bench", "-keyalg", KEY_ALGORITHM,
                "-keysize", String.valueOf(KEY_BITS), "-validity", "2", "-dname", "CN=127.0.0.1, O=warden-bench",
                "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-storetype", "PKCS12", "-keystore", keyStore.toString(),
                "-storepass", password, "-keypass", password));
        run(dir, List.of(keytool.toString(), "-exportcert", "-rfc", "-alias", "bench", "-keystore",
                keyStore.toString(), "-storetype", "PKCS12", "-storepass", password, "-file", certificate.toString()));
        run(dir, List.of(keytool.toString(), "-importcert", "-noprompt", "-alias", "bench-ca", "-file",
                certificate.toString(), "-storetype", "PKCS12", "-keystore", trustStore.toString(),
                "-storepass", password));
        return new TlsMaterial(keyStore.toAbsolutePath(), trustStore.toAbsolutePath(), password);
    }

    private static void run(Path dir, List<String> command) throws IOException, InterruptedException {
        Path output = Files.createTempFile(dir, "keytool", ".log");
        try {
            Process process = new ProcessBuilder(new ArrayList<>(command)).directory(dir.toFile())
                    .redirectErrorStream(true).redirectOutput(output.toFile()).start();
            if (!process.waitFor(KEYTOOL_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IOException("keytool " + command.get(1) + " did not finish within "
                        + KEYTOOL_TIMEOUT_MS / 1000 + " s");
            }
            if (process.exitValue() != 0) {
                throw new IOException("keytool " + command.get(1) + " failed (status " + process.exitValue() + "): "
                        + Files.readString(output, StandardCharsets.UTF_8).strip());
            }
        } finally {
            Files.deleteIfExists(output);
        }
    }

    /**
     * The Apache client's TLS properties for these stores ({@code zookeeper.client.secure} and the
     * {@code zookeeper.ssl.*} keys); the Netty socket is the one the Apache client speaks TLS over.
     */
    public Map<String, String> clientProperties() {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("zookeeper.client.secure", "true");
        properties.put("zookeeper.clientCnxnSocket", "org.apache.zookeeper.ClientCnxnSocketNetty");
        // the engine the servers' client ports use (MemberConfig.TLS_ENGINE), so the client's share
        // of the two cores is as small as it can be and the same against both servers
        properties.put("zookeeper.ssl.sslProvider", MemberConfig.TLS_ENGINE);
        properties.put("zookeeper.ssl.keyStore.location", keyStore.toString());
        properties.put("zookeeper.ssl.keyStore.password", password);
        properties.put("zookeeper.ssl.keyStore.type", "PKCS12");
        properties.put("zookeeper.ssl.trustStore.location", trustStore.toString());
        properties.put("zookeeper.ssl.trustStore.password", password);
        properties.put("zookeeper.ssl.trustStore.type", "PKCS12");
        return properties;
    }

    @Override
    public String toString() {
        return "TlsMaterial[keyStore=" + keyStore + ", trustStore=" + trustStore + ", password=<hidden>]";
    }
}
