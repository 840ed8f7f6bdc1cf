package dev.warden.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.warden.server.ApacheClients;
import dev.warden.server.WardenServer;
import dev.warden.server.config.AdminServerSettings;
import dev.warden.server.config.ServerConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The restore admin command on a standalone server, from outside: ZooKeeper's client and plain
 * HTTP. A snapshot taken with the snapshot command and restored later brings the old state back,
 * ends the sessions the snapshot does not hold, answers {@code last_zxid}, and survives a restart.
 */
class AdminRestoreTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SUPER_AUTH = "digest " + Targets.SUPER_AUTH;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path dir;

    @Test
    void aRestoreBringsTheSnapshotsStateBackAndSurvivesARestart() throws Exception {
        ServerConfig config = config(0);
        WardenServer server = WardenServer.start(config);
        long restoredZxid;
        try {
            String url = adminUrl(server);
            ZooKeeper before = ApacheClients.connect(server.connectString());
            before.create("/kept", "v1".getBytes(), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            before.create("/app", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            before.create("/eph", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL);
            HttpResponse<byte[]> snapshot = http.send(HttpRequest.newBuilder(URI.create(url + "/snapshot"))
                    .header("Authorization", SUPER_AUTH).build(), HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(200, snapshot.statusCode());
            long snapshotZxid = Long.parseLong(snapshot.headers().firstValue("last_zxid").orElseThrow());

            // the state moves on, and a session the snapshot does not hold watches it
            before.setData("/kept", "v2".getBytes(), -1);
            before.delete("/app", -1);
            BlockingQueue<WatchedEvent> laterEvents = new LinkedBlockingQueue<>();
            List<WatchedEvent> laterSeen = new CopyOnWriteArrayList<>();
            ZooKeeper later = connect(server.connectString(), laterEvents, laterSeen);
            later.create("/later", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            later.exists("/later", true);

            HttpResponse<String> answer = restore(url, SUPER_AUTH, snapshot.body());
            assertEquals(200, answer.statusCode(), answer.body());
            JsonNode body = JSON.readTree(answer.body());
            assertEquals("restore", body.get("command").asText());
            assertTrue(body.get("error").isNull(), answer.body());
            restoredZxid = body.get("last_zxid").asLong();
            assertTrue(restoredZxid > snapshotZxid, answer.body());

            ZooKeeper fresh = ApacheClients.connect(server.connectString());
            assertEquals("v1", new String(fresh.getData("/kept", false, null)));
            assertNotNull(fresh.exists("/app", false));
            assertNull(fresh.exists("/later", false));
            // the session the snapshot does not hold is gone; its watch is dropped, not fired
            assertEquals(Watcher.Event.KeeperState.Expired, awaitState(laterEvents, Watcher.Event.KeeperState.Expired));
            assertTrue(laterSeen.stream().noneMatch(e -> e.getType() != Watcher.Event.EventType.None),
                    laterSeen.toString());
            // the session the snapshot holds comes back, with its ephemeral
            assertEquals("v1", new String(before.getData("/kept", false, null)));
            assertEquals(before.getSessionId(), fresh.exists("/eph", false).getEphemeralOwner());
            // the restored nodes keep the snapshot's zxids; writes go on after the restore's
            assertTrue(fresh.exists("/kept", false).getMzxid() <= snapshotZxid);
            assertTrue(fresh.setData("/kept", "v3".getBytes(), -1).getMzxid() > restoredZxid);
            fresh.setData("/kept", "v1".getBytes(), -1);
            fresh.close();
            before.close();
            later.close();
        } finally {
            server.close();
        }
        try (WardenServer restarted = WardenServer.start(config)) {
            ZooKeeper zk = ApacheClients.connect(restarted.connectString());
            try {
                assertEquals("v1", new String(zk.getData("/kept", false, null)));
                assertNotNull(zk.exists("/app", false));
                assertNull(zk.exists("/later", false));
                assertTrue(zk.exists("/kept", false).getMzxid() > restoredZxid);
            } finally {
                zk.close();
            }
        }
    }

    @Test
    void aBadBodyChangesNothingAndTheRateLimitHoldsTheNextOneOff() throws Exception {
        try (WardenServer server = WardenServer.start(config(60_000))) {
            String url = adminUrl(server);
            ZooKeeper zk = ApacheClients.connect(server.connectString());
            zk.create("/kept", "v1".getBytes(), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            long zxidBefore = zk.exists("/kept", false).getMzxid();

            HttpResponse<String> bad = restore(url, SUPER_AUTH, "not a snapshot".getBytes(StandardCharsets.UTF_8));
            assertEquals(400, bad.statusCode(), bad.body());
            assertTrue(JSON.readTree(bad.body()).get("error").asText().contains("not a valid Warden snapshot"),
                    bad.body());
            HttpResponse<String> limited = restore(url, SUPER_AUTH, "again".getBytes(StandardCharsets.UTF_8));
            assertEquals(429, limited.statusCode(), limited.body());
            assertTrue(JSON.readTree(limited.body()).get("error").asText().contains("rate limited"), limited.body());

            // nothing changed, and the session lives on
            assertEquals("v1", new String(zk.getData("/kept", false, null)));
            assertEquals(zxidBefore, zk.exists("/kept", false).getMzxid());

            // authentication as for snapshot: none 401, identities without ALL on / 403
            assertEquals(401, restore(url, null, new byte[1]).statusCode());
            zk.addAuthInfo("digest", Targets.SUPER_AUTH.getBytes(StandardCharsets.UTF_8));
            zk.setACL("/", new ArrayList<>(List.of(new ACL(ZooDefs.Perms.ALL, new Id("digest", Targets.superDigest())))),
                    -1);
            assertEquals(403, restore(url, "digest someone:else", new byte[1]).statusCode());
            assertEquals(403, restore(url, "bogus", new byte[1]).statusCode());
            assertEquals(405, http.send(HttpRequest.newBuilder(URI.create(url + "/restore"))
                    .header("Authorization", SUPER_AUTH).build(), HttpResponse.BodyHandlers.ofString()).statusCode());
            zk.close();
        }
    }

    @Test
    void theSnapshotCommandIsRateLimitedAndCanBeTurnedOffAsInZooKeeper() throws Exception {
        try (WardenServer server = WardenServer.start(config(60_000))) {
            String url = adminUrl(server);
            assertEquals(401, snapshot(url, null).statusCode(), "authentication first: nothing counted");
            assertEquals(200, snapshot(url, SUPER_AUTH).statusCode());
            HttpResponse<byte[]> limited = snapshot(url, SUPER_AUTH);
            assertEquals(429, limited.statusCode());
            String error = JSON.readTree(new String(limited.body(), StandardCharsets.UTF_8)).get("error").asText();
            assertTrue(error.contains("admin.rateLimiterIntervalInMS"), error);
        }
        try (WardenServer server = WardenServer.start(config(0))) {
            String url = adminUrl(server);
            assertEquals(200, snapshot(url, SUPER_AUTH).statusCode());
            assertEquals(200, snapshot(url, SUPER_AUTH).statusCode(), "0: no limit");
        }
        ServerConfig disabled = config(0);
        disabled = disabled.toBuilder().adminServer(disabled.adminServer().withSnapshotEnabled(false)).build();
        try (WardenServer server = WardenServer.start(disabled)) {
            HttpResponse<byte[]> refused = snapshot(adminUrl(server), SUPER_AUTH);
            assertEquals(503, refused.statusCode());
            assertTrue(new String(refused.body(), StandardCharsets.UTF_8).contains("admin.snapshot.enabled=false"));
        }
    }

    private HttpResponse<byte[]> snapshot(String url, String authorization) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url + "/snapshot?streaming=false"))
                .timeout(Duration.ofSeconds(60));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    @Test
    void aBodyAboveTheLimitIsRefusedBeforeItIsRead() throws Exception {
        try (WardenServer server = WardenServer.start(config(0))) {
            byte[] tooLarge = new byte[dev.warden.state.pipeline.SnapshotRestore.maxSnapshotBytes() + 1];
            HttpResponse<String> answer = restore(adminUrl(server), SUPER_AUTH, tooLarge);
            assertEquals(413, answer.statusCode(), answer.body());
            assertTrue(JSON.readTree(answer.body()).get("error").asText().contains("warden restore"), answer.body());
        }
    }

    @Test
    void withRestoreDisabledEveryRestoreIsRefused() throws Exception {
        ServerConfig config = config(0);
        config = config.toBuilder().adminServer(config.adminServer().withRestoreEnabled(false)).build();
        try (WardenServer server = WardenServer.start(config)) {
            HttpResponse<String> answer = restore(adminUrl(server), SUPER_AUTH, new byte[1]);
            assertEquals(503, answer.statusCode(), answer.body());
            assertTrue(JSON.readTree(answer.body()).get("error").asText().contains("Restore command is disabled"),
                    answer.body());
        }
    }

    private ServerConfig config(long rateLimiterIntervalMs) {
        return ServerConfig.builder().dataDir(dir.resolve("data")).clientPort(0).superDigest(Targets.superDigest())
                .adminServer(AdminServerSettings.DEFAULTS.withEnabled(true).withPort(0)
                        .withRateLimiterIntervalMs(rateLimiterIntervalMs)).build();
    }

    private static String adminUrl(WardenServer server) {
        return "http://127.0.0.1:" + server.adminServerPort() + "/commands";
    }

    private HttpResponse<String> restore(String url, String authorization, byte[] body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url + "/restore"))
                .timeout(Duration.ofSeconds(60)).header("Content-Type", "application/octet-stream")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static ZooKeeper connect(String connectString, BlockingQueue<WatchedEvent> events,
                                     List<WatchedEvent> seen) throws Exception {
        ZooKeeper zk = new ZooKeeper(connectString, 10_000, event -> {
            seen.add(event);
            events.add(event);
        });
        awaitState(events, Watcher.Event.KeeperState.SyncConnected);
        return zk;
    }

    private static Watcher.Event.KeeperState awaitState(BlockingQueue<WatchedEvent> events,
                                                        Watcher.Event.KeeperState wanted) throws InterruptedException {
        long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadlineNs) {
            WatchedEvent event = events.poll(100, TimeUnit.MILLISECONDS);
            if (event != null && event.getState() == wanted) {
                return wanted;
            }
        }
        throw new AssertionError("no " + wanted + " within 20 s");
    }
}
