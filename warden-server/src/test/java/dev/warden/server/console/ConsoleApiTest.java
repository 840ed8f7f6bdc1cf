package dev.warden.server.console;

import static dev.warden.server.console.ConsoleHttp.base64;
import static dev.warden.server.console.ConsoleHttp.params;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.warden.server.ApacheClients;
import dev.warden.server.WardenServer;
import dev.warden.server.config.AdminServerSettings;
import dev.warden.server.config.ServerConfig;
import dev.warden.state.auth.Digests;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The console's JSON endpoints over plain HTTP against a standalone server with its AdminServer on. */
class ConsoleApiTest {
    private static final String SUPER = "super:" + Digests.idFor("super:adminpw").split(":", 2)[1];
    private static final List<ACL> ONLY_BOB = new ArrayList<>(List.of(new ACL(ZooDefs.Perms.ALL,
            new Id("digest", Digests.idFor("bob:bobpw")))));
    private static final List<ACL> READ_ONLY = new ArrayList<>(List.of(new ACL(ZooDefs.Perms.READ,
            new Id("world", "anyone"))));

    @TempDir
    static Path dataDir;
    static WardenServer server;
    static ZooKeeper client;

    @BeforeAll
    static void start() throws Exception {
        server = WardenServer.start(ServerConfig.builder().dataDir(dataDir).clientPort(0).superDigest(SUPER)
                .adminServer(AdminServerSettings.DEFAULTS.withEnabled(true).withPort(0)).build());
        client = ApacheClients.connect(server.connectString());
    }

    @AfterAll
    static void stop() throws Exception {
        client.close();
        server.close();
    }

    private static ConsoleHttp loggedIn(String user, String password) throws Exception {
        ConsoleHttp http = new ConsoleHttp(server.adminServerPort());
        ConsoleHttp.Reply login = http.login(user, password);
        assertEquals(200, login.status(), login.json().toString());
        return http;
    }

    @Test
    void withoutALoginTheApiAnswers401AndThePageIsServedWithItsPolicy() throws Exception {
        ConsoleHttp anonymous = new ConsoleHttp(server.adminServerPort());
        for (String endpoint : List.of("node", "children", "sessions", "watches", "ensemble", "stats", "whoami")) {
            ConsoleHttp.Reply reply = anonymous.get(endpoint, params("path", "/"));
            assertEquals(401, reply.status(), endpoint);
            assertEquals("LOGIN_REQUIRED", reply.text("error"));
        }
        assertEquals(401, anonymous.post("set", params("path", "/", "version", "0")).status());
        var page = anonymous.raw(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.adminServerPort()
                + "/console/")));
        assertEquals(200, page.statusCode());
        assertTrue(page.body().contains("console.js"));
        assertTrue(page.headers().firstValue("Content-Security-Policy").orElseThrow().contains("default-src 'self'"));
        var script = anonymous.raw(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.adminServerPort()
                + "/console/console.js")));
        assertEquals(200, script.statusCode());
        // the admin commands are still answered beside the console
        var monitor = anonymous.raw(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.adminServerPort()
                + "/commands/ruok")));
        assertEquals(200, monitor.statusCode());
    }

    @Test
    void aLogoutEndsTheLogin() throws Exception {
        ConsoleHttp http = loggedIn("carol", "pw");
        assertEquals(200, http.get("whoami", Map.of()).status());
        assertEquals(405, http.get("set", params("path", "/")).status());
        assertEquals(405, http.post("sessions", Map.of()).status());
        assertEquals(404, http.get("no-such-endpoint", Map.of()).status());
        assertEquals(200, http.post("logout", Map.of()).status());
        assertEquals(401, http.get("whoami", Map.of()).status());
    }

    @Test
    void aPostWithoutTheConsoleHeaderIsRefused() throws Exception {
        client.create("/csrf", "keep".getBytes(), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        ConsoleHttp http = loggedIn("carol", "pw");
        ConsoleHttp.Reply reply = http.postWithoutHeader("set", params("path", "/csrf", "data_base64", base64("x"),
                "version", "0"));
        assertEquals(403, reply.status());
        assertArrayEquals("keep".getBytes(), client.getData("/csrf", false, null));
    }

    @Test
    void theNodeViewGivesDataStatAclAndWhatTheLoginMayDo() throws Exception {
        client.create("/view", "{\"a\":1}".getBytes(), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        ConsoleHttp http = loggedIn("carol", "pw");
        JsonNode node = http.get("node", params("path", "/view")).json();
        assertEquals("{\"a\":1}", ConsoleHttp.text(node));
        assertEquals(0, node.path("stat").path("version").asInt());
        assertEquals(7, node.path("stat").path("data_length").asInt());
        assertEquals("world", node.path("acl").get(0).path("scheme").asText());
        assertEquals("cdrwa", node.path("acl").get(0).path("perms").asText());
        assertTrue(node.path("can").path("write").asBoolean());
        assertTrue(node.path("can").path("delete").asBoolean());
        ConsoleHttp.Reply missing = http.get("node", params("path", "/no/such"));
        assertEquals(404, missing.status());
        assertEquals("NONODE", missing.text("error"));
        assertEquals(400, http.get("node", params("path", "relative")).status());
    }

    @Test
    void childrenComeAPageAtATimeInNameOrderAfterACursor() throws Exception {
        client.create("/paged", null, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        for (String name : List.of("d", "b", "a", "e", "c", "ab")) {
            client.create("/paged/" + name, null, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        }
        client.create("/paged/b/inner", null, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        ConsoleHttp http = loggedIn("carol", "pw");
        JsonNode first = http.get("children", params("path", "/paged", "limit", "4")).json();
        assertEquals(6, first.path("total").asInt());
        assertEquals(List.of("a", "ab", "b", "c"), names(first));
        assertEquals(1, first.path("children").get(2).path("num_children").asInt());
        assertEquals("c", first.path("next").asText());
        JsonNode second = http.get("children", params("path", "/paged", "limit", "4", "after", "c")).json();
        assertEquals(List.of("d", "e"), names(second));
        assertTrue(second.path("next").isNull());
        JsonNode prefixed = http.get("children", params("path", "/paged", "prefix", "a")).json();
        assertEquals(List.of("a", "ab"), names(prefixed));
        assertEquals(2, prefixed.path("matching").asInt());
        assertEquals(400, http.get("children", params("path", "/paged", "limit", "100000")).status());
    }

    @Test
    void anEditCarriesTheVersionItReadAndAStaleOneIsRefused() throws Exception {
        client.create("/edit", "v0".getBytes(), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        ConsoleHttp http = loggedIn("carol", "pw");
        int read = http.get("node", params("path", "/edit")).json().path("stat").path("version").asInt();
        ConsoleHttp.Reply saved = http.post("set", params("path", "/edit", "data_base64", base64("v1"),
                "version", Integer.toString(read)));
        assertEquals(200, saved.status(), saved.json().toString());
        assertEquals(1, saved.json().path("stat").path("version").asInt());
        client.setData("/edit", "someone else".getBytes(), 1);
        ConsoleHttp.Reply stale = http.post("set", params("path", "/edit", "data_base64", base64("mine"),
                "version", "1"));
        assertEquals(409, stale.status());
        assertEquals("BADVERSION", stale.text("error"));
        assertTrue(stale.text("message").contains("you read version 1, it is now at version 2"), stale.text("message"));
        assertArrayEquals("someone else".getBytes(), client.getData("/edit", false, null));
    }

    @Test
    void createAndDeleteGoThroughThePipeline() throws Exception {
        client.create("/made", null, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        ConsoleHttp http = loggedIn("carol", "pw");
        ConsoleHttp.Reply created = http.post("create", params("path", "/made/child", "data_base64", base64("hi")));
        assertEquals(200, created.status(), created.json().toString());
        assertArrayEquals("hi".getBytes(), client.getData("/made/child", false, null));
        ConsoleHttp.Reply sequential = http.post("create", params("path", "/made/seq-", "sequential", "true"));
        assertEquals("/made/seq-0000000001", sequential.text("path"));
        ConsoleHttp.Reply mine = http.post("create", params("path", "/made/mine", "acl", "creator"));
        assertEquals(200, mine.status());
        JsonNode acl = http.get("node", params("path", "/made/mine")).json().path("acl").get(0);
        assertEquals("digest:" + Digests.idFor("carol:pw"), acl.path("scheme").asText() + ":" + acl.path("id").asText());
        assertEquals(409, http.post("create", params("path", "/made/child")).status());
        assertEquals(409, http.post("delete", params("path", "/made", "version", "0")).status()); // NOTEMPTY
        assertEquals(409, http.post("delete", params("path", "/made/child", "version", "7")).status());
        ConsoleHttp.Reply deleted = http.post("delete", params("path", "/made/child", "version", "0"));
        assertEquals(200, deleted.status(), deleted.json().toString());
        assertNull(client.exists("/made/child", false));
    }

    @Test
    void aLoginSeesAndChangesOnlyWhatItsDigestIdentityIsGranted() throws Exception {
        client.addAuthInfo("digest", "bob:bobpw".getBytes());
        client.create("/bobs", "secret".getBytes(), ONLY_BOB, CreateMode.PERSISTENT);
        client.create("/readonly", "look".getBytes(), READ_ONLY, CreateMode.PERSISTENT);

        ConsoleHttp alice = loggedIn("alice", "alicepw");
        JsonNode hidden = alice.get("node", params("path", "/bobs")).json();
        assertTrue(hidden.path("data_base64").isNull());
        assertFalse(hidden.path("can").path("write").asBoolean());
        ConsoleHttp.Reply refused = alice.post("set", params("path", "/bobs", "data_base64", base64("x"), "version", "0"));
        assertEquals(403, refused.status());
        assertEquals("NOAUTH", refused.text("error"));
        assertEquals(403, alice.get("children", params("path", "/bobs")).status());

        JsonNode readable = alice.get("node", params("path", "/readonly")).json();
        assertEquals("look", ConsoleHttp.text(readable));
        assertFalse(readable.path("can").path("write").asBoolean());
        assertFalse(readable.path("can").path("create").asBoolean());
        assertEquals(403, alice.post("set", params("path", "/readonly", "data_base64", base64("x"), "version", "0"))
                .status());
        assertArrayEquals("look".getBytes(), client.getData("/readonly", false, null));

        ConsoleHttp bob = loggedIn("bob", "bobpw");
        assertEquals("secret", ConsoleHttp.text(bob.get("node", params("path", "/bobs")).json()));
        assertEquals(200, bob.post("set", params("path", "/bobs", "data_base64", base64("bob's"), "version", "0"))
                .status());

        ConsoleHttp admin = loggedIn("super", "adminpw");
        assertTrue(admin.get("whoami", Map.of()).json().path("super").asBoolean());
        assertEquals(200, admin.post("set", params("path", "/bobs", "data_base64", base64("super's"), "version", "1"))
                .status());
        assertArrayEquals("super's".getBytes(), client.getData("/bobs", false, null));
    }

    @Test
    void sessionsShowAddressTimeoutEphemeralsAndWatches() throws Exception {
        ZooKeeper other = ApacheClients.connect(server.connectString());
        try {
            other.create("/lease", null, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL);
            other.exists("/watched-by-other", true);
            String id = "0x" + Long.toHexString(other.getSessionId());
            ConsoleHttp http = loggedIn("carol", "pw");
            JsonNode sessions = http.get("sessions", Map.of()).json();
            JsonNode mine = null;
            for (JsonNode s : sessions.path("sessions")) {
                if (s.path("session_id").asText().equals(id)) {
                    mine = s;
                }
            }
            assertNotNull(mine, sessions.toString());
            assertTrue(mine.path("client_address").asText().startsWith("127.0.0.1:"), mine.toString());
            assertEquals(other.getSessionTimeout(), mine.path("timeout_ms").asInt());
            assertEquals(1, mine.path("ephemeral_count").asInt());
            assertEquals("/lease", mine.path("ephemerals").get(0).asText());
            assertEquals("/watched-by-other", mine.path("watches").get(0).asText());

            // a page at a time: every session once, in id order
            List<String> paged = new ArrayList<>();
            String after = null;
            do {
                JsonNode page = http.get("sessions", after == null ? params("limit", "1")
                        : params("limit", "1", "after", after)).json();
                page.path("sessions").forEach(s -> paged.add(s.path("session_id").asText()));
                after = page.path("next").isNull() ? null : page.path("next").asText();
            } while (after != null);
            assertEquals(sessions.path("total").asInt(), paged.size());
            assertTrue(paged.contains(id));
            List<String> sorted = new ArrayList<>(paged);
            sorted.sort(java.util.Comparator.comparingLong(h -> Long.parseUnsignedLong(h.substring(2), 16)));
            assertEquals(sorted, paged);
            assertEquals(400, http.get("sessions", params("after", "zz")).status());

            JsonNode watches = http.get("watches", params("prefix", "/watched-by")).json();
            assertEquals(1, watches.path("matching").asInt());
            assertEquals("/watched-by-other", watches.path("watches").get(0).path("path").asText());
            assertEquals(id, watches.path("watches").get(0).path("sessions").get(0).asText());
        } finally {
            other.close();
        }
    }

    @Test
    void aStandaloneEnsembleIsOneMemberAndStatsCount() throws Exception {
        ConsoleHttp http = loggedIn("carol", "pw");
        JsonNode ensemble = http.get("ensemble", Map.of()).json();
        assertEquals("standalone", ensemble.path("mode").asText());
        assertEquals(1, ensemble.path("members").size());
        JsonNode self = ensemble.path("members").get(0);
        assertEquals("standalone", self.path("role").asText());
        assertEquals(0, self.path("lag").asInt());
        assertEquals(Long.parseLong(self.path("zxid").asText().substring(2), 16) >>> 32, self.path("epoch").asLong());

        long before = http.get("stats", Map.of()).json().path("requests").asLong();
        client.exists("/", false);
        client.exists("/", false);
        JsonNode after = http.get("stats", Map.of()).json();
        assertTrue(after.path("requests").asLong() >= before + 2, before + " then " + after);
        assertTrue(after.has("write_p99_ms") && after.has("outstanding"));
        // the latency window is ticked once a second: writes show in the second they were answered
        client.create("/timed", null, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        client.setData("/timed", new byte[1], -1);
        long deadline = System.currentTimeMillis() + 5_000;
        long writes = 0;
        while (writes == 0 && System.currentTimeMillis() < deadline) {
            Thread.sleep(200);
            writes = http.get("stats", Map.of()).json().path("writes_last_second").asLong();
        }
        assertTrue(writes >= 1, "no write in any second's window");
    }

    @Test
    void anOversizedRequestIs413() throws Exception {
        ConsoleHttp http = loggedIn("carol", "pw");
        String huge = "x".repeat(5 * 1024 * 1024);
        ConsoleHttp.Reply reply = http.post("set", params("path", "/", "data_base64", huge, "version", "0"));
        assertEquals(413, reply.status());
        assertEquals("TOO_LARGE", reply.text("error"));
    }

    @Test
    void writesRefusedByTheServerKeepTheirZooKeeperCode() throws Exception {
        ConsoleHttp http = loggedIn("carol", "pw");
        ConsoleHttp.Reply reply = http.post("create", params("path", "/missing-parent/child"));
        assertEquals(404, reply.status(), reply.json().toString());
        assertEquals("NONODE", reply.text("error"));
        assertTrue(reply.text("message").contains("/missing-parent/child"));
        assertNull(client.exists("/missing-parent", false));
    }

    private static List<String> names(JsonNode page) {
        List<String> names = new ArrayList<>();
        page.path("children").forEach(c -> names.add(c.path("name").asText()));
        return names;
    }
}
