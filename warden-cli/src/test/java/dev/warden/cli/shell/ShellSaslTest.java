package dev.warden.cli.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.server.WardenServer;
import dev.warden.server.config.ConfigLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shell authenticating with SASL DIGEST-MD5 as zkCli does: a JAAS file
 * ({@code java.security.auth.login.config}) with a {@code Client} section, here named in the
 * {@code -client-configuration} file, against a server requiring SASL
 * ({@code sessionRequireClientSASLAuth}). A wrong password is refused with AUTH_FAILED, and a
 * JAAS file without the section is said, not silently ignored.
 */
class ShellSaslTest {
    private static final String JAAS = """
            Server {
              org.apache.zookeeper.server.auth.DigestLoginModule required
              user_erin="erin-sasl-secret";
            };
            Client {
              org.apache.zookeeper.server.auth.DigestLoginModule required
              username="erin" password="erin-sasl-secret";
            };
            Stale {
              org.apache.zookeeper.server.auth.DigestLoginModule required
              username="erin" password="an-old-password-77";
            };
            """;

    @TempDir
    static Path dir;
    static Path jaas;
    static WardenServer server;

    @BeforeAll
    static void start() throws Exception {
        jaas = Files.writeString(dir.resolve("jaas.conf"), JAAS);
        Properties zooCfg = new Properties();
        zooCfg.setProperty("dataDir", dir.resolve("data").toString());
        zooCfg.setProperty("clientPort", "0");
        zooCfg.setProperty("java.security.auth.login.config", jaas.toString());
        zooCfg.setProperty("sessionRequireClientSASLAuth", "true");
        server = WardenServer.start(ConfigLoader.fromProperties(zooCfg, warning -> { }));
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static Path clientConfig(String name, String... keyValues) throws Exception {
        StringBuilder text = new StringBuilder("java.security.auth.login.config=" + jaas + "\n");
        for (int i = 0; i < keyValues.length; i += 2) {
            text.append(keyValues[i]).append('=').append(keyValues[i + 1]).append('\n');
        }
        return Files.writeString(dir.resolve(name + ".properties"), text);
    }

    private static ShellRun shell(String script, Path config) {
        return ShellRun.of(script, "-server", server.connectString(), "-timeout", "5000", "-client-configuration",
                config.toString());
    }

    @Test
    void theClientSectionGivesTheSessionItsSaslIdentity() throws Exception {
        ShellRun run = shell("whoami\ncreate /erins x sasl:erin:cdrwa\nget /erins\n", clientConfig("client"));
        assertEquals(0, run.exitCode(), run::toString);
        assertTrue(run.out().contains("sasl: erin"), run::toString);
        assertTrue(run.out().endsWith("Created /erins\nx\n"), run::toString);
    }

    @Test
    void aWrongPasswordIsRefusedWithAuthFailedAndNotShown() throws Exception {
        ShellRun run = shell("ls /\n", clientConfig("stale", "zookeeper.sasl.clientconfig", "Stale"));
        assertEquals(1, run.exitCode(), run::toString);
        assertTrue(run.err().contains("Unable to connect to " + server.connectString())
                && run.err().contains("AUTH_FAILED"), run::toString);
        assertFalse(run.toString().contains("an-old-password"), run::toString);
    }

    @Test
    void aJaasFileWithoutTheSectionIsSaidAndANamedMissingSectionIsAnError() throws Exception {
        Path noClient = Files.writeString(dir.resolve("server-only.conf"), "Server {\n"
                + "  org.apache.zookeeper.server.auth.DigestLoginModule required\n  user_x=\"y\";\n};\n");
        ShellClientConfig none = ShellClientConfig.load(null,
                Map.of("java.security.auth.login.config", noClient.toString())::get);
        assertNull(none.sasl());
        assertTrue(none.notice().contains("no 'Client' section"), none.notice());
        assertThrows(IllegalArgumentException.class, () -> ShellClientConfig.load(null, Map.of(
                "java.security.auth.login.config", noClient.toString(), "zookeeper.sasl.clientconfig", "Missing")::get));
        assertNull(ShellClientConfig.load(null, Map.of("java.security.auth.login.config", jaas.toString(),
                "zookeeper.sasl.client", "false")::get).sasl(), "zookeeper.sasl.client=false turns it off");
    }
}
