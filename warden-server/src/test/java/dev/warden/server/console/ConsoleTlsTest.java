package dev.warden.server.console;

import static dev.warden.server.console.ConsoleHttp.base64;
import static dev.warden.server.console.ConsoleHttp.params;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.warden.server.ApacheClients;
import dev.warden.server.WardenServer;
import dev.warden.server.config.ConfigLoader;
import dev.warden.server.config.ServerConfig;
import dev.warden.state.auth.Digests;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The AdminServer over HTTPS (admin.forceHttps, admin.portUnification, admin.needClientAuth with
 * the ssl.quorum stores) and the console's login by client certificate as its x509 identity,
 * which the nodes' ACLs then judge as they judge a digest login. Certificates are made by
 * keytool when the tests start.
 */
class ConsoleTlsTest {
    private static final String ALICE = "CN=alice,O=Example";
    private static final List<ACL> ONLY_ALICE = new ArrayList<>(List.of(new ACL(ZooDefs.Perms.ALL,
            new Id("x509", ALICE))));
    private static final List<ACL> ONLY_BOB = new ArrayList<>(List.of(new ACL(ZooDefs.Perms.ALL,
            new Id("digest", Digests.idFor("bob:bobpw")))));

    @TempDir
    static Path certificates;
    static Path serverStore;
    static Path aliceStore;
    static Path malloryStore;
    static Path trustStore;

    @TempDir
    Path dataDir;

    @BeforeAll
    static void makeCertificates() throws Exception {
        TestCertificates make = new TestCertificates(certificates);
        TestCertificates.Pending server = make.startKeyPair("server", "CN=localhost", "ip:127.0.0.1,dns:localhost");
        TestCertificates.Pending alice = make.startKeyPair("alice", ALICE, "uri:spiffe://example.org/ns/app/alice");
        TestCertificates.Pending mallory = make.startKeyPair("mallory", "CN=mallory", null);
        serverStore = server.await();
        aliceStore = alice.await();
        malloryStore = mallory.await();
        trustStore = make.trustStore("trust", aliceStore);
    }

    /** zoo.cfg keys: the ssl.quorum stores of these tests, then {@code keysAndValues}. */
    private static Properties tls(String... keysAndValues) {
        Properties keys = new Properties();
        keys.setProperty("ssl.quorum.keyStore.location", serverStore.toString());
        keys.setProperty("ssl.quorum.keyStore.password", TestCertificates.PASSWORD);
        keys.setProperty("ssl.quorum.trustStore.location", trustStore.toString());
        keys.setProperty("ssl.quorum.trustStore.password", TestCertificates.PASSWORD);
        for (int i = 0; i < keysAndValues.length; i += 2) {
            keys.setProperty(keysAndValues[i], keysAndValues[i + 1]);
        }
        return keys;
    }

    /** A server with an AdminServer on a free port, configured as zoo.cfg would configure it. */
    private WardenServer start(Properties keys) throws IOException {
        Properties file = new Properties();
        file.putAll(keys);
        file.setProperty("dataDir", dataDir.toString());
        file.setProperty("clientPort", "0");
        file.setProperty("admin.enableServer", "true");
        file.setProperty("admin.serverPort", "0");
        List<String> warnings = new ArrayList<>();
        ServerConfig config = ConfigLoader.fromProperties(file, warnings::add);
        assertEquals(List.of(), warnings, "every key of these tests is read");
        return WardenServer.start(config);
    }

    private static void createNodes(WardenServer server) throws Exception {
        ZooKeeper client = ApacheClients.connect(server.connectString());
        try {
            client.create("/alice", "alice's".getBytes(StandardCharsets.UTF_8), ONLY_ALICE, CreateMode.PERSISTENT);
            client.addAuthInfo("digest", "bob:bobpw".getBytes(StandardCharsets.UTF_8));
            client.create("/bob", "bob's".getBytes(StandardCharsets.UTF_8), ONLY_BOB, CreateMode.PERSISTENT);
            client.create("/open", null, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        } finally {
            client.close();
        }
    }

    private static String https(WardenServer server) {
        return "https://127.0.0.1:" + server.adminServerPort();
    }

    @Test
    void aCertificateLogsInAsItsSubjectAndTheAclsDecide() throws Exception {
        try (WardenServer server = start(tls("admin.forceHttps", "true"))) {
            createNodes(server);
            ConsoleHttp alice = new ConsoleHttp(https(server), TestCertificates.client(serverStore, aliceStore));

            JsonNode offered = alice.get("tls", Map.of()).json();
            assertTrue(offered.path("https").asBoolean(), offered.toString());
            assertEquals(ALICE, offered.path("certificate").path("x509").asText(), offered.toString());

            ConsoleHttp.Reply login = alice.loginWithCertificate();
            assertEquals(200, login.status(), login.json().toString());
            assertEquals("x509", login.text("scheme"));
            assertEquals(ALICE, login.text("user"));
            assertFalse(login.json().path("super").asBoolean());
            assertTrue(login.json().path("identities").toString().contains("\"x509:" + ALICE + "\""), login.json().toString());
            // sent back only over HTTPS
            assertTrue(alice.loginCookieHeader().contains("; Secure"), alice.loginCookieHeader());

            // x509:alice's node is hers to read and change; bob's is not
            assertEquals("alice's", ConsoleHttp.text(alice.get("node", params("path", "/alice")).json()));
            ConsoleHttp.Reply set = alice.post("set", params("path", "/alice", "data_base64", base64("changed by alice"),
                    "version", "0"));
            assertEquals(200, set.status(), set.json().toString());
            JsonNode bobs = alice.get("node", params("path", "/bob")).json();
            assertTrue(bobs.path("read_refused").isTextual(), bobs.toString());
            ConsoleHttp.Reply refused = alice.post("set", params("path", "/bob", "data_base64", base64("no"),
                    "version", "0"));
            assertEquals(403, refused.status());
            assertEquals("NOAUTH", refused.text("error"));
            // a node created with "only this login" is x509:alice's
            assertEquals(200, alice.post("create", params("path", "/open/mine", "acl", "creator")).status());
            assertEquals("x509", alice.get("node", params("path", "/open/mine")).json().path("acl").get(0)
                    .path("scheme").asText());

            // without a certificate: none on offer, a certificate login refused, a digest login still works
            ConsoleHttp anonymous = new ConsoleHttp(https(server), TestCertificates.client(serverStore, null));
            assertTrue(anonymous.get("tls", Map.of()).json().path("certificate").isNull());
            ConsoleHttp.Reply noCertificate = anonymous.loginWithCertificate();
            assertEquals(401, noCertificate.status());
            assertEquals("CERTIFICATE_REQUIRED", noCertificate.text("error"));
            assertEquals(200, anonymous.login("bob", "bobpw").status());
            assertEquals("bob's", ConsoleHttp.text(anonymous.get("node", params("path", "/bob")).json()));

            // a certificate the trust store does not hold: the JDK's client does not offer it (its issuer is not
            // among the authorities the server names), and one presented anyway fails the handshake
            ConsoleHttp mallory = new ConsoleHttp(https(server), TestCertificates.client(serverStore, malloryStore));
            assertEquals("CERTIFICATE_REQUIRED", mallory.loginWithCertificate().text("error"));
            ConsoleHttp insistent = new ConsoleHttp(https(server),
                    TestCertificates.clientPresentingAlways(serverStore, malloryStore));
            assertThrows(IOException.class, insistent::loginWithCertificate);

            // admin.forceHttps: plain HTTP gets no answer
            ConsoleHttp plain = new ConsoleHttp(server.adminServerPort());
            assertThrows(IOException.class, () -> plain.login("bob", "bobpw"));
        }
    }

    @Test
    void portUnificationServesHttpAndHttpsAndTakesTheIdentityFromASubjectAlternativeName() throws Exception {
        try (WardenServer server = start(tls("admin.portUnification", "true", "ssl.clientCertIdType", "SAN",
                "ssl.clientCertIdSanMatchType", "6", "ssl.clientCertIdSanMatchRegex", "spiffe://example\\.org/.*",
                "ssl.clientCertIdSanExtractRegex", "spiffe://example\\.org/ns/app/(.+)",
                "ssl.clientCertIdSanExtractMatcherGroupIndex", "1"))) {
            createNodes(server);
            ConsoleHttp plain = new ConsoleHttp(server.adminServerPort());
            ConsoleHttp.Reply digest = plain.login("bob", "bobpw");
            assertEquals(200, digest.status(), digest.json().toString());
            assertFalse(plain.loginCookieHeader().contains("Secure"), plain.loginCookieHeader());
            assertFalse(plain.get("tls", Map.of()).json().path("https").asBoolean());
            assertEquals(401, plain.loginWithCertificate().status());

            ConsoleHttp alice = new ConsoleHttp(https(server), TestCertificates.client(serverStore, aliceStore));
            ConsoleHttp.Reply login = alice.loginWithCertificate();
            assertEquals(200, login.status(), login.json().toString());
            assertEquals("alice", login.text("user"));
            assertTrue(login.json().path("identities").toString().contains("\"x509:alice\""), login.json().toString());
            // the node is x509:CN=alice,O=Example's, not x509:alice's
            assertTrue(alice.get("node", params("path", "/alice")).json().path("read_refused").isTextual());
        }
    }

    @Test
    void pemStoresServeHttpsAndCheckTheClientCertificate() throws Exception {
        TestCertificates make = new TestCertificates(certificates);
        Properties pem = new Properties();
        pem.setProperty("admin.forceHttps", "true");
        pem.setProperty("ssl.quorum.keyStore.location", make.pem("server", serverStore, true).toString());
        pem.setProperty("ssl.quorum.trustStore.location", make.pem("trusted-alice", aliceStore, false).toString());
        try (WardenServer server = start(pem)) {
            ConsoleHttp alice = new ConsoleHttp(https(server), TestCertificates.client(serverStore, aliceStore));
            ConsoleHttp.Reply login = alice.loginWithCertificate();
            assertEquals(200, login.status(), login.json().toString());
            assertEquals(ALICE, login.text("user"));
        }
    }

    @Test
    void needClientAuthRequiresACertificateAndTheSuperUserCertificateReadsEverything() throws Exception {
        try (WardenServer server = start(tls("admin.forceHttps", "true", "admin.needClientAuth", "true",
                "X509AuthenticationProvider.superUser", ALICE))) {
            createNodes(server);
            ConsoleHttp anonymous = new ConsoleHttp(https(server), TestCertificates.client(serverStore, null));
            assertThrows(IOException.class, () -> anonymous.get("tls", Map.of()));

            HttpClient aliceClient = TestCertificates.client(serverStore, aliceStore);
            ConsoleHttp alice = new ConsoleHttp(https(server), aliceClient);
            ConsoleHttp.Reply login = alice.loginWithCertificate();
            assertEquals(200, login.status(), login.json().toString());
            assertTrue(login.json().path("super").asBoolean(), login.json().toString());
            assertEquals("bob's", ConsoleHttp.text(alice.get("node", params("path", "/bob")).json()));

            // the admin commands are served over the same HTTPS
            HttpResponse<String> ruok = aliceClient.send(HttpRequest.newBuilder(URI.create(https(server)
                    + "/commands/ruok")).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, ruok.statusCode(), ruok.body());
        }
    }
}
