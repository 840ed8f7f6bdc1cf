package dev.warden.server.security;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.server.FreePorts;
import dev.warden.server.WardenServer;
import dev.warden.server.config.ConfigLoader;
import dev.warden.server.config.ServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import java.util.stream.Collectors;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.ClientInfo;
import org.apache.zookeeper.data.Id;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS on the client port with the Apache Java client (Netty socket, zookeeper.client.secure)
 * and raw TLS sockets: x509 identities in ACLs and as super user, mutual TLS refusals (expired,
 * not yet valid, untrusted, revoked), port unification, host name checks, and certificates
 * re-read from disk. Certificates are made by {@link TestPki} for this run.
 */
class ClientTlsTest {
    @TempDir
    static Path dir;
    static TestPki ca;
    static TestPki rogue;
    static Path trustPem;
    static Path trustP12;
    static Path serverKeyStore;
    static WardenServer server;
    static int securePort;
    /**
     * Revoked before the server checks any certificate: the JDK fetches a CRL once and asks
     * for it again only after 30 s, so a revocation made later would not be seen in this run.
     */
    static TestPki.Issued revoked;

    @BeforeAll
    static void start() throws Exception {
        ca = TestPki.create(dir.resolve("pki"), "test-ca");
        rogue = TestPki.create(dir.resolve("rogue"), "rogue-ca");
        trustPem = ca.trustStore(TestPki.StoreType.PEM);
        trustP12 = ca.trustStore(TestPki.StoreType.PKCS12);
        serverKeyStore = ca.keyStore(ca.issue("warden-server"), TestPki.StoreType.PKCS12);
        revoked = ca.issue("revoked");
        ca.revoke(revoked);
        securePort = FreePorts.pick();
        Properties zooCfg = new Properties();
        zooCfg.setProperty("dataDir", dir.resolve("data").toString());
        zooCfg.setProperty("clientPort", "0");
        zooCfg.setProperty("secureClientPort", Integer.toString(securePort));
        zooCfg.setProperty("ssl.keyStore.location", serverKeyStore.toString());
        zooCfg.setProperty("ssl.keyStore.password", TestPki.PASSWORD);
        zooCfg.setProperty("ssl.trustStore.location", trustPem.toString());
        zooCfg.setProperty("ssl.crl", "true");
        zooCfg.setProperty("X509AuthenticationProvider.superUser", dnOf("admin"));
        zooCfg.setProperty("authProvider.x509", "org.apache.zookeeper.server.auth.X509AuthenticationProvider");
        server = WardenServer.start(ConfigLoader.fromProperties(zooCfg, warning -> { }));
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    static String secureConnect() {
        return "127.0.0.1:" + securePort;
    }

    static ZooKeeper apacheAs(String commonName, TestPki.StoreType type) throws Exception {
        Path keyStore = ca.keyStore(ca.issue(commonName), type);
        ZooKeeper zk = TlsClients.apache(secureConnect(), TlsClients.apacheConfig(keyStore, trustP12), 10_000);
        assertNotNull(zk, "no TLS session for " + commonName);
        return zk;
    }

    static String dnOf(String commonName) {
        return ca.issue(commonName).certificate().getSubjectX500Principal().getName();
    }

    @Test
    void certificateIsAnX509IdentityUsableInAcls() throws Exception {
        String aliceDn = dnOf("alice");
        try (ZooKeeper alice = apacheAs("alice", TestPki.StoreType.JKS);
             ZooKeeper bob = apacheAs("bob", TestPki.StoreType.PKCS12)) {
            List<ClientInfo> whoAmI = alice.whoAmI();
            assertTrue(whoAmI.stream().anyMatch(i -> i.getAuthScheme().equals("x509") && i.getUser().equals(aliceDn)),
                    whoAmI.toString());
            alice.create("/alice-only", "secret".getBytes(), java.util.Collections.singletonList(new ACL(31, new Id("x509", aliceDn))),
                    CreateMode.PERSISTENT);
            assertArrayEquals("secret".getBytes(), alice.getData("/alice-only", false, null));
            assertThrows(KeeperException.NoAuthException.class, () -> bob.getData("/alice-only", false, null));
            // the auth scheme expands to the certificate's identity
            alice.create("/alice-auth", new byte[0], org.apache.zookeeper.ZooDefs.Ids.CREATOR_ALL_ACL,
                    CreateMode.PERSISTENT);
            assertEquals(List.of(new ACL(31, new Id("x509", aliceDn))), alice.getACL("/alice-auth", null));
        }
    }

    @Test
    void superUserByCertificateBypassesAcls() throws Exception {
        try (ZooKeeper carol = apacheAs("carol", TestPki.StoreType.JKS);
             ZooKeeper admin = apacheAs("admin", TestPki.StoreType.JKS)) {
            carol.create("/carol-only", "c".getBytes(), java.util.Collections.singletonList(new ACL(31, new Id("x509", dnOf("carol")))),
                    CreateMode.PERSISTENT);
            assertArrayEquals("c".getBytes(), admin.getData("/carol-only", false, null));
        }
    }

    @Test
    void refusedCertificatesAreRefusedAndOthersKeepServing() throws Exception {
        Instant now = Instant.now();
        TestPki.Issued expired = ca.issue("expired", List.of(), List.of(), now.minus(Duration.ofDays(10)),
                now.minus(Duration.ofDays(1)), List.of());
        TestPki.Issued notYetValid = ca.issue("future", List.of(), List.of(), now.plus(Duration.ofDays(1)),
                now.plus(Duration.ofDays(10)), List.of());
        TestPki.Issued untrusted = rogue.issue("stranger");
        try (ZooKeeper healthy = apacheAs("healthy", TestPki.StoreType.PKCS12)) {
            for (TestPki.Issued bad : List.of(expired, notYetValid, untrusted, revoked)) {
                Path keyStore = bad.issuer().keyStore(bad, TestPki.StoreType.PKCS12);
                assertFalse(TlsClients.rawTlsSession(securePort, keyStore, TestPki.StoreType.PKCS12, trustP12),
                        bad.name() + " was let in");
                healthy.create("/still-serving-", new byte[0], org.apache.zookeeper.ZooDefs.Ids.OPEN_ACL_UNSAFE,
                        CreateMode.PERSISTENT_SEQUENTIAL);
            }
            assertFalse(TlsClients.rawTlsSession(securePort, null, null, trustP12), "no certificate, clientAuth=need");
            TestPki.Issued good = ca.issue("good");
            assertTrue(TlsClients.rawTlsSession(securePort, ca.keyStore(good, TestPki.StoreType.PKCS12),
                    TestPki.StoreType.PKCS12, trustP12));
            assertEquals(4, healthy.getChildren("/", false).stream().filter(n -> n.startsWith("still-serving-"))
                    .count());
        }
    }

    @Test
    void plaintextToTlsPortAndTlsToPlaintextPortAreRefused() throws Exception {
        assertNull(TlsClients.apache(secureConnect(), new org.apache.zookeeper.client.ZKClientConfig(), 2_000),
                "a plaintext client got a session on the TLS port");
        Path keyStore = ca.keyStore(ca.issue("lost"), TestPki.StoreType.PKCS12);
        assertNull(TlsClients.apache(server.connectString(), TlsClients.apacheConfig(keyStore, trustP12), 2_000),
                "a TLS client got a session on the plaintext port");
        try (ZooKeeper plain = dev.warden.server.ApacheClients.connect(server.connectString())) {
            assertNotNull(plain.exists("/", false));
        }
    }

    @Test
    void clientRefusesAServerWhoseCertificateNamesAnotherHost() throws Exception {
        // a PEM key store on the server side
        Path otherHost = ca.keyStore(ca.issue("elsewhere", List.of("elsewhere.example"), List.of(),
                Instant.now().minus(Duration.ofDays(1)), Instant.now().plus(Duration.ofDays(1)), List.of()),
                TestPki.StoreType.PEM);
        Path client = ca.keyStore(ca.issue("dave"), TestPki.StoreType.PKCS12);
        try (WardenServer misnamed = startTls(otherHost, false)) {
            String connect = "127.0.0.1:" + misnamed.secureClientPort();
            assertNull(TlsClients.apache(connect, TlsClients.apacheConfig(client, trustP12), 2_000));
            var unchecked = TlsClients.apacheConfig(client, trustP12);
            unchecked.setProperty("zookeeper.ssl.hostnameVerification", "false");
            ZooKeeper zk = TlsClients.apache(connect, unchecked, 10_000);
            assertNotNull(zk, "hostnameVerification=false must connect");
            zk.close();
        }
    }

    @Test
    void portUnificationTakesTlsAndPlaintextOnClientPort() throws Exception {
        try (WardenServer unified = startTls(serverKeyStore, true)) {
            String connect = unified.connectString();
            try (ZooKeeper plain = dev.warden.server.ApacheClients.connect(connect);
                 ZooKeeper tls = TlsClients.apache(connect, TlsClients.apacheConfig(
                         ca.keyStore(ca.issue("erin"), TestPki.StoreType.JKS), trustP12), 10_000)) {
                assertNotNull(tls, "no TLS session on the unified port");
                plain.create("/both", "x".getBytes(), org.apache.zookeeper.ZooDefs.Ids.OPEN_ACL_UNSAFE,
                        CreateMode.PERSISTENT);
                assertArrayEquals("x".getBytes(), tls.getData("/both", false, null));
                assertTrue(tls.whoAmI().stream().anyMatch(i -> i.getAuthScheme().equals("x509")));
                assertFalse(plain.whoAmI().stream().anyMatch(i -> i.getAuthScheme().equals("x509")));
            }
            assertEquals("imok", dev.warden.server.net.FourLetterWordClient.ask(connect, "ruok").trim());
        }
    }

    @Test
    void changedKeyStoreIsReadForNewConnections() throws Exception {
        Path live = dir.resolve("live-server.p12");
        Files.copy(ca.keyStore(ca.issue("first-name"), TestPki.StoreType.PKCS12), live);
        try (WardenServer reloading = startTls(live, false)) {
            assertEquals("first-name", servedName(reloading.secureClientPort()));
            Path next = ca.keyStore(ca.issue("second-name"), TestPki.StoreType.PKCS12);
            Files.copy(next, live, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            long deadline = System.nanoTime() + 10_000_000_000L;
            String name = "first-name";
            while (!name.equals("second-name") && System.nanoTime() < deadline) {
                Thread.sleep(200);
                name = servedName(reloading.secureClientPort());
            }
            assertEquals("second-name", name);
        }
    }

    /** The CN of the certificate the server presents now. */
    static String servedName(int port) throws Exception {
        javax.net.ssl.SSLContext context = javax.net.ssl.SSLContext.getInstance("TLS");
        context.init(null, new javax.net.ssl.TrustManager[] {new TrustAll()}, null);
        try (javax.net.ssl.SSLSocket socket = (javax.net.ssl.SSLSocket) context.getSocketFactory()
                .createSocket("127.0.0.1", port)) {
            socket.startHandshake();
            var certificate = (java.security.cert.X509Certificate) socket.getSession().getPeerCertificates()[0];
            String dn = certificate.getSubjectX500Principal().getName();
            return java.util.Arrays.stream(dn.split(",")).filter(p -> p.startsWith("CN="))
                    .map(p -> p.substring(3)).collect(Collectors.joining());
        }
    }

    /** Only to read which certificate a server presents; never used to send data. */
    static final class TrustAll implements javax.net.ssl.X509TrustManager {
        @Override
        public void checkClientTrusted(java.security.cert.X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(java.security.cert.X509Certificate[] chain, String authType) {
        }

        @Override
        public java.security.cert.X509Certificate[] getAcceptedIssuers() {
            return new java.security.cert.X509Certificate[0];
        }
    }

    static WardenServer startTls(Path keyStore, boolean unified) throws Exception {
        ServerConfig base = server.config();
        var tls = dev.warden.protocol.tls.TlsSettings.parse("ssl.", key -> switch (key) {
            case "ssl.keyStore.location" -> keyStore.toString();
            case "ssl.keyStore.password" -> TestPki.PASSWORD;
            case "ssl.trustStore.location" -> trustPem.toString();
            case "ssl.clientAuth" -> "want";
            default -> null;
        });
        SecurityConfig security = new SecurityConfig(unified ? 0 : FreePorts.pick(), null, unified, tls, true,
                X509Identities.DEFAULT, false, false, null, true, SaslSettings.NONE, AuthEnforcement.OFF,
                QuorumSaslSettings.OFF);
        return WardenServer.start(ServerConfig.builder().dataDir(Files.createTempDirectory(dir, "data"))
                .clientPort(0).fourLetterWordWhitelist(java.util.Set.of("*")).security(security).build());
    }
}
