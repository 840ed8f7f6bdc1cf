package dev.warden.server.quorum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.warden.consensus.Role;
import dev.warden.server.ApacheClients;
import dev.warden.server.config.AdminServerSettings;
import dev.warden.state.auth.Digests;
import dev.warden.state.pipeline.SnapshotRestore;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The restore admin command on a three-member ensemble: sent to a follower, it goes to the
 * leader as one transaction, and every member then serves the snapshot's state with the same
 * digest at the same zxid, also a member restarted after it. A member without a quorum refuses.
 */
class RestoreEnsembleTest {
    private static final String SUPER = "super:restore-test";
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private TestEnsemble ensemble;

    @AfterEach
    void stop() {
        if (ensemble != null) {
            ensemble.close();
        }
    }

    @Test
    void aRestoreThroughAFollowerReachesEveryMemberAndOneRestartedAfterIt(@TempDir Path dir) throws Exception {
        ensemble = new TestEnsemble(dir, List.of(1L, 2L, 3L), List.of(), ZabConsensus::new);
        String superDigest = Digests.idFor(SUPER);
        ensemble.configureAll(b -> b.superDigest(superDigest).adminServer(AdminServerSettings.DEFAULTS
                .withEnabled(true).withPort(0).withRateLimiterIntervalMs(0)));
        ensemble.startAll();
        ensemble.awaitAllServing(30_000);
        long leader = leader();
        long follower = leader == 1 ? 2 : 1;
        long other = 6 - leader - follower;

        ZooKeeper zk = ApacheClients.connect(ensemble.connectString(follower));
        zk.create("/kept", "v1".getBytes(), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        zk.create("/app", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        HttpResponse<byte[]> snapshot = http.send(HttpRequest.newBuilder(URI.create(adminUrl(follower) + "/snapshot"))
                .header("Authorization", "digest " + SUPER).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, snapshot.statusCode());
        zk.setData("/kept", "v2".getBytes(), -1);
        zk.create("/later", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        zk.close();

        HttpResponse<String> answer = restore(follower, snapshot.body());
        assertEquals(200, answer.statusCode(), answer.body());
        JsonNode body = JSON.readTree(answer.body());
        long restoredZxid = body.get("last_zxid").asLong();
        assertTrue(restoredZxid > Long.parseLong(snapshot.headers().firstValue("last_zxid").orElseThrow()));

        for (long id = 1; id <= 3; id++) {
            assertServesTheRestoredState(id, restoredZxid);
        }
        assertEveryMemberHoldsTheSameState();

        ensemble.stop(other);
        ensemble.start(other);
        ensemble.awaitServing(other, 30_000);
        assertServesTheRestoredState(other, restoredZxid);
        assertEveryMemberHoldsTheSameState();

        // alone, a member has no quorum: it refuses and names the offline way
        ensemble.stop(leader);
        ensemble.stop(other);
        awaitNotServing(follower);
        HttpResponse<String> alone = restore(follower, snapshot.body());
        assertEquals(503, alone.statusCode(), alone.body());
        assertTrue(JSON.readTree(alone.body()).get("error").asText().contains("warden restore"), alone.body());
    }

    private void assertServesTheRestoredState(long id, long restoredZxid) throws Exception {
        ZooKeeper zk = ApacheClients.connect(ensemble.connectString(id));
        try {
            java.util.concurrent.CountDownLatch synced = new java.util.concurrent.CountDownLatch(1);
            zk.sync("/", (rc, path, ctx) -> synced.countDown(), null);
            assertTrue(synced.await(10, java.util.concurrent.TimeUnit.SECONDS));
            assertEquals("v1", new String(zk.getData("/kept", false, null)), "member " + id);
            assertNotNull(zk.exists("/app", false), "member " + id);
            assertNull(zk.exists("/later", false), "member " + id);
            assertTrue(zk.exists("/kept", false).getMzxid() < restoredZxid);
        } finally {
            zk.close();
        }
    }

    /** Each member's consistent snapshot at the same zxid: verified, they hold the same nodes and digest. */
    private void assertEveryMemberHoldsTheSameState() throws Exception {
        long deadlineMs = System.currentTimeMillis() + 20_000;
        Map<Long, SnapshotRestore.Verified> states = new HashMap<>();
        while (System.currentTimeMillis() < deadlineMs) {
            states.clear();
            for (long id : ensemble.servers().keySet()) {
                HttpResponse<byte[]> snapshot = http.send(HttpRequest.newBuilder(URI.create(adminUrl(id) + "/snapshot"))
                        .header("Authorization", "digest " + SUPER).build(), HttpResponse.BodyHandlers.ofByteArray());
                assertEquals(200, snapshot.statusCode());
                states.put(id, SnapshotRestore.verify(snapshot.body()));
            }
            if (states.values().stream().map(SnapshotRestore.Verified::snapshotZxid).distinct().count() == 1) {
                break; // the same zxid everywhere: a session ending meanwhile would move one member first
            }
            Thread.sleep(50);
        }
        assertEquals(1, states.values().stream().distinct().count(), states.toString());
    }

    private HttpResponse<String> restore(long id, byte[] snapshot) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(adminUrl(id) + "/restore"))
                .timeout(Duration.ofSeconds(60)).header("Authorization", "digest " + SUPER)
                .header("Content-Type", "application/octet-stream")
                .POST(HttpRequest.BodyPublishers.ofByteArray(snapshot)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private String adminUrl(long id) {
        return "http://127.0.0.1:" + ensemble.server(id).adminServerPort() + "/commands";
    }

    private long leader() {
        return ensemble.servers().entrySet().stream().filter(e -> e.getValue().member().role() == Role.LEADING)
                .map(Map.Entry::getKey).findFirst().orElseThrow();
    }

    private void awaitNotServing(long id) throws InterruptedException {
        long deadlineMs = System.currentTimeMillis() + 20_000;
        while (ensemble.server(id).member().isServing()) {
            if (System.currentTimeMillis() > deadlineMs) {
                throw new AssertionError("member " + id + " still serving alone");
            }
            Thread.sleep(10);
        }
    }
}
