package dev.warden.cli.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.protocol.tls.StoreFile;
import dev.warden.server.FreePorts;
import dev.warden.server.WardenServer;
import dev.warden.server.config.ConfigLoader;
import dev.warden.server.security.TestPki;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shell on a TLS client port with mutual TLS: zkCli's {@code -client-configuration} file in
 * the Apache client's keys ({@code zookeeper.client.secure}, {@code zookeeper.ssl.*}) connects,
 * and the certificate is the session's x509 identity; without it the TLS port is not reached; a
 * missing file or a wrong store password is named before connecting, the password never shown.
 */
class ShellTlsTest {
    private static final String STORE_PASSWORD = TestPki.PASSWORD;

    @TempDir
    static Path dir;
    static TestPki ca;
    static WardenServer server;
    static String secureConnect;

    @BeforeAll
    static void start() throws Exception {
        ca = TestPki.create(dir.resolve("pki"), "shell-ca");
        int securePort = FreePorts.pick();
        Properties zooCfg = new Properties();
        zooCfg.setProperty("dataDir", dir.resolve("data").toString());
        zooCfg.setProperty("clientPort", "0");
        zooCfg.setProperty("secureClientPort", Integer.toString(securePort));
        zooCfg.setProperty("ssl.keyStore.location", ca.keyStore(ca.issue("warden-server"), TestPki.StoreType.PEM)
                .toString());
        zooCfg.setProperty("ssl.trustStore.location", ca.trustStore(TestPki.StoreType.PEM).toString());
        server = WardenServer.start(ConfigLoader.fromProperties(zooCfg, warning -> { }));
        secureConnect = "127.0.0.1:" + securePort;
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static Path clientConfig(String name, String keyStorePassword) throws Exception {
        Path keyStore = ca.keyStore(ca.issue(name), TestPki.StoreType.PKCS12);
        Properties p = new Properties();
        p.setProperty("zookeeper.client.secure", "true");
        p.setProperty("zookeeper.clientCnxnSocket", "org.apache.zookeeper.ClientCnxnSocketNetty");
        p.setProperty("zookeeper.ssl.keyStore.location", keyStore.toString());
        p.setProperty("zookeeper.ssl.keyStore.password", keyStorePassword);
        p.setProperty("zookeeper.ssl.trustStore.location", ca.trustStore(TestPki.StoreType.PEM).toString());
        Path file = dir.resolve(name + ".properties");
        try (var out = Files.newBufferedWriter(file)) {
            p.store(out, null);
        }
        return file;
    }

    private static ShellRun shell(String script, String... options) {
        String[] args = new String[options.length + 4];
        System.arraycopy(new String[] {"-server", secureConnect, "-timeout", "5000"}, 0, args, 0, 4);
        System.arraycopy(options, 0, args, 4, options.length);
        return ShellRun.of(script, args);
    }

    @Test
    void theClientConfigurationFileConnectsWithTlsAndTheCertificateIsTheIdentity() throws Exception {
        Path config = clientConfig("shell-user", STORE_PASSWORD);
        String dn = ca.issue("shell-user").certificate().getSubjectX500Principal().getName();
        ShellRun run = shell("whoami\ncreate /over-tls x\nget /over-tls\n", "-client-configuration",
                config.toString());
        assertEquals(0, run.exitCode(), run::toString);
        assertTrue(run.out().contains("x509: " + dn), run::toString);
        assertTrue(run.out().endsWith("Created /over-tls\nx\n"), run::toString);
    }

    @Test
    void withoutTlsTheTlsPortIsNotReached() {
        ShellRun run = shell("ls /\n");
        assertEquals(1, run.exitCode(), run::toString);
        assertTrue(run.err().contains("Unable to connect to " + secureConnect), run::toString);
    }

    @Test
    void aMissingFileOrAWrongPasswordIsNamedBeforeConnectingWithoutShowingThePassword() throws Exception {
        ShellRun missing = shell("ls /\n", "-client-configuration", dir.resolve("absent.properties").toString());
        assertEquals(2, missing.exitCode(), missing::toString);
        assertTrue(missing.err().contains("-client-configuration") && missing.err().contains("absent.properties"),
                missing::toString);
        Path wrong = clientConfig("wrong-password", "not-the-store-password-4e1");
        ShellRun refused = shell("ls /\n", "-client-configuration", wrong.toString());
        assertEquals(2, refused.exitCode(), refused::toString);
        assertTrue(refused.err().contains("zookeeper.ssl.keyStore"), refused::toString);
        assertFalse(refused.toString().contains("not-the-store-password"), refused::toString);
    }

    @Test
    void theFileWinsOverSystemProperties() throws Exception {
        Path config = clientConfig("from-file", STORE_PASSWORD);
        Map<String, String> system = Map.of("zookeeper.client.secure", "false",
                "zookeeper.ssl.keyStore.location", "/elsewhere.p12");
        ShellClientConfig both = ShellClientConfig.load(config, system::get);
        assertNotNull(both.tls(), "the file's zookeeper.client.secure=true wins");
        assertEquals(StoreFile.StoreType.PKCS12, both.tls().keyStore().type());
        assertTrue(both.tls().keyStore().location().getFileName().toString().startsWith("from_file"),
                "the file's key store, not the system property's: " + both.tls().keyStore().location());
        ShellClientConfig systemOnly = ShellClientConfig.load(null, Map.of("zookeeper.client.secure", "false")::get);
        assertNull(systemOnly.tls());
        assertNull(systemOnly.sasl());
        assertThrows(IllegalArgumentException.class, () -> ShellClientConfig.load(null,
                Map.of("zookeeper.client.secure", "true", "zookeeper.ssl.keyStore.password", "x")::get));
    }
}
