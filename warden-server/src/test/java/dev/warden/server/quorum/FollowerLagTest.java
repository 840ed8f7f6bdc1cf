package dev.warden.server.quorum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.consensus.Role;
import dev.warden.consensus.Zxid;
import dev.warden.server.ApacheClients;
import dev.warden.server.WardenServer;
import dev.warden.server.config.MetricsSettings;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A leader's per-follower lag, counted right and on /metrics as warden_follower_lag_transactions;
 * and the syncs and elections mntr counts (zk_diff_count, zk_snap_count, zk_looking_count).
 */
class FollowerLagTest {
    @Test
    void lagCountsTheTransactionsOfTheEpochAFollowerLacks() {
        long leader = Zxid.of(3, 10);
        assertEquals(0, FollowerLag.behind(leader, leader));
        assertEquals(4, FollowerLag.behind(leader, Zxid.of(3, 6)));
        // a follower last acknowledged in an earlier epoch lacks all of this one's
        assertEquals(10, FollowerLag.behind(leader, Zxid.of(2, 500)));
        assertEquals(Map.of(2L, 4L, 3L, 0L), FollowerLag.of(leader, Map.of(2L, Zxid.of(3, 6), 3L, leader)));
        assertEquals(Map.of(), FollowerLag.of(-1, Map.of(2L, 5L)));
    }

    @Test
    void aServingLeaderExportsEachFollowersLagAndCountsItsSyncs(@TempDir Path dir) throws Exception {
        try (TestEnsemble ensemble = new TestEnsemble(dir, List.of(1L, 2L, 3L), List.of(), ZabConsensus::new)) {
            ensemble.configureAll(b -> b.metrics(MetricsSettings.DEFAULTS.withPrometheus(true).withHttpPort(0)));
            ensemble.startAll();
            ensemble.awaitAllServing(20_000);
            long leader = ensemble.servers().entrySet().stream()
                    .filter(e -> e.getValue().member().role() == Role.LEADING).map(Map.Entry::getKey)
                    .findFirst().orElseThrow();
            long follower = leader == 1 ? 2 : 1;
            ZooKeeper zk = ApacheClients.connect(ensemble.connectString(follower));
            try {
                for (int i = 0; i < 5; i++) {
                    zk.create("/lag" + i, new byte[1], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                }
            } finally {
                zk.close();
            }
            WardenServer leading = ensemble.server(leader);
            long deadline = System.currentTimeMillis() + 10_000;
            String metrics = "";
            while (System.currentTimeMillis() < deadline) {
                metrics = scrape(leading.metricsPort());
                if (leading.member().status().followerLag().keySet().size() == 2
                        && metrics.contains("warden_follower_lag_transactions{follower=\"" + follower + "\",} 0.0")) {
                    break;
                }
                Thread.sleep(20);
            }
            Set<Long> followers = leading.member().status().followerLag().keySet();
            assertEquals(2, followers.size(), followers.toString());
            assertFalse(followers.contains(leader));
            assertTrue(metrics.contains("warden_follower_lag_transactions{follower=\"" + follower + "\",} 0.0"),
                    metrics);
            String atFollower = scrape(ensemble.server(follower).metricsPort());
            assertFalse(atFollower.contains("warden_follower_lag_transactions{"), "a follower has no followers");

            // each member looked for a leader at least once (more if a slow start made one time
            // out), and the leader brought each follower up to date at least once
            var status = leading.member().status();
            assertTrue(status.diffSyncs() + status.snapSyncs() >= 2, status.toString());
            for (WardenServer member : ensemble.servers().values()) {
                assertTrue(member.member().status().lookingCount() >= 1);
            }
            long looked = status.lookingCount();
            String mntr = dev.warden.server.net.FourLetterWordClient.ask(ensemble.connectString(leader), "mntr");
            assertTrue(mntr.contains("zk_looking_count\t" + looked + "\n"), mntr);
            assertTrue(mntr.contains("zk_diff_count\t" + status.diffSyncs() + "\n"), mntr);
            assertTrue(scrape(leading.metricsPort()).contains("\nlooking_count " + looked + ".0"), metrics);
            // the five creates (and the session's creation) as ZooKeeper counts transactions
            var led = status.transactionCounts();
            assertTrue(led.proposals() >= 6 && led.commits() >= 6, led.toString());
            assertEquals(0, led.learnerProposals());
            var followed = ensemble.server(follower).member().status().transactionCounts();
            assertTrue(followed.learnerProposals() >= 6 && followed.learnerCommits() >= 6, followed.toString());
            assertEquals(0, followed.proposals());
            for (String queue : List.of("driver_inbox", "log_batches_in_flight", "apply_queue")) {
                assertTrue(metrics.contains("warden_queue_depth{queue=\"" + queue + "\",}"), metrics);
            }
        }
    }

    private static String scrape(int port) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
    }
}
