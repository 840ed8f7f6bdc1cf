package dev.warden.client.tls;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.client.WardenClient;
import dev.warden.protocol.Acl;
import dev.warden.protocol.CreateMode;
import dev.warden.protocol.Id;
import dev.warden.protocol.tls.TlsSettings;
import dev.warden.server.FreePorts;
import dev.warden.server.WardenServer;
import dev.warden.server.config.ServerConfig;
import dev.warden.server.security.AuthEnforcement;
import dev.warden.server.security.QuorumSaslSettings;
import dev.warden.server.security.SaslSettings;
import dev.warden.server.security.SecurityConfig;
import dev.warden.server.security.TestPki;
import dev.warden.server.security.X509Identities;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Warden's own client over TLS, configured with ZooKeeper's client key names. */
class WardenClientTlsTest {
    @TempDir
    Path dir;

    private WardenServer startServer(TestPki ca, TestPki.Issued serverCertificate) throws Exception {
        Path keyStore = ca.keyStore(serverCertificate, TestPki.StoreType.PKCS12);
        Path trust = ca.trustStore(TestPki.StoreType.PEM);
        TlsSettings tls = TlsSettings.parse("ssl.", Map.of("ssl.keyStore.location", keyStore.toString(),
                "ssl.keyStore.password", TestPki.PASSWORD, "ssl.trustStore.location", trust.toString())::get);
        SecurityConfig security = new SecurityConfig(FreePorts.pick(), null, false, tls, true, X509Identities.DEFAULT,
                false, false, null, true, SaslSettings.NONE, AuthEnforcement.OFF, QuorumSaslSettings.OFF);
        return WardenServer.start(ServerConfig.builder().dataDir(dir.resolve("data-" + System.nanoTime()))
                .clientPort(0).security(security).build());
    }

    /** The client's settings as a ZooKeeper client's properties would hold them. */
    private static TlsSettings clientTls(TestPki ca, String name, TestPki.StoreType type, boolean verifyHost) {
        Path keyStore = ca.keyStore(ca.issue(name), type);
        Path trust = ca.trustStore(TestPki.StoreType.JKS);
        return TlsSettings.parse("zookeeper.ssl.", Map.of("zookeeper.ssl.keyStore.location", keyStore.toString(),
                "zookeeper.ssl.keyStore.password", TestPki.PASSWORD,
                "zookeeper.ssl.trustStore.location", trust.toString(),
                "zookeeper.ssl.trustStore.password", TestPki.PASSWORD,
                "zookeeper.ssl.hostnameVerification", Boolean.toString(verifyHost))::get);
    }

    @Test
    void mutualTlsGivesTheClientItsX509Identity() throws Exception {
        TestPki ca = TestPki.create(dir.resolve("pki"), "client-test-ca");
        try (WardenServer server = startServer(ca, ca.issue("server"));
             WardenClient client = WardenClient.builder().connectString("127.0.0.1:" + server.secureClientPort())
                     .tls(clientTls(ca, "frank", TestPki.StoreType.PEM, true)).connect().get(10, TimeUnit.SECONDS)) {
            String dn = ca.issue("frank").certificate().getSubjectX500Principal().getName();
            assertTrue(client.whoAmI().get(5, TimeUnit.SECONDS).stream()
                    .anyMatch(info -> info.authScheme().equals("x509") && info.user().equals(dn)));
            client.create("/frank", "f".getBytes(), List.of(new Acl(31, new Id("x509", dn))), CreateMode.PERSISTENT)
                    .get(5, TimeUnit.SECONDS);
            assertArrayEquals("f".getBytes(), client.getData("/frank").get(5, TimeUnit.SECONDS).data());
        }
    }

    @Test
    void aServerCertificateForAnotherHostIsRefusedUnlessVerificationIsOff() throws Exception {
        TestPki ca = TestPki.create(dir.resolve("pki2"), "client-test-ca2");
        TestPki.Issued elsewhere = ca.issue("elsewhere", List.of("elsewhere.example"), List.of(),
                Instant.now().minus(Duration.ofDays(1)), Instant.now().plus(Duration.ofDays(1)), List.of());
        try (WardenServer server = startServer(ca, elsewhere)) {
            String connect = "127.0.0.1:" + server.secureClientPort();
            assertThrows(Exception.class, () -> WardenClient.builder().connectString(connect)
                    .sessionTimeout(Duration.ofSeconds(2)).tls(clientTls(ca, "gina", TestPki.StoreType.JKS, true))
                    .connect().get(10, TimeUnit.SECONDS).close());
            try (WardenClient unchecked = WardenClient.builder().connectString(connect)
                    .tls(clientTls(ca, "gina", TestPki.StoreType.PKCS12, false)).connect().get(10, TimeUnit.SECONDS)) {
                unchecked.exists("/").get(5, TimeUnit.SECONDS);
            }
        }
    }
}
