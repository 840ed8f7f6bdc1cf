package dev.warden.cli.ensemble;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.cli.cluster.ClusterSpec;
import dev.warden.cli.cluster.Flavour;
import dev.warden.cli.cluster.LocalCluster;
import dev.warden.cli.damage.DataDamage;
import dev.warden.server.net.FourLetterWordClient;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;

/**
 * Three Warden members as separate JVMs, one of them restarted on a data directory it cannot
 * vouch for: every snapshot damaged and its first log segment gone, or a snapshot that passes
 * every checksum but holds another tree. It must never serve, vote or lead with that state: it
 * sets it aside, vouches for no history, takes a copy from the leader and then serves the
 * ensemble's tree.
 */
class DamagedMemberTest {
    private static final int TICK_TIME_MS = 500;
    private static final int NODES = 1_000;
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @Test
    void aMemberWhoseSnapshotsAreDamagedAndWhoseLogStartsLateTakesACopyAndNeverVotesWithoutOne() throws Exception {
        LocalCluster cluster = start("damaged-history");
        boolean passed = false;
        try {
            int leader = cluster.awaitQuorum(TIMEOUT);
            writeNodes(cluster);
            int damaged = cluster.followers().get(0);
            int healthy = 6 - leader - damaged;
            Path dataDir = cluster.member(damaged).dataDir();
            awaitSnapshots(dataDir);
            cluster.stop(damaged);
            DataDamage.overwrite64BytesOfEverySnapshot(dataDir);
            DataDamage.deleteOldestLogSegment(dataDir);

            // with the leader gone, the healthy follower and the damaged member are two of three, but
            // the damaged one must not count: it may have acknowledged writes it no longer holds
            cluster.stop(leader);
            cluster.start(damaged);
            long untilMs = System.currentTimeMillis() + 8 * TICK_TIME_MS * 2;
            while (System.currentTimeMillis() < untilMs) {
                assertTrue(cluster.leaders().isEmpty(), "no leader without member " + leader + ": "
                        + cluster.modes());
                assertTrue(!cluster.mode(damaged).servesInEnsemble(), "the damaged member serves nothing");
                Thread.sleep(100);
            }
            assertTrue(Files.exists(dataDir.resolve("resyncRequired")));

            cluster.start(leader);
            cluster.awaitQuorum(TIMEOUT);
            ZooKeeper reader = Ensembles.connect(cluster.connectString(damaged), 10_000);
            try {
                sync(reader);
                assertEquals(NODES + 1, reader.getChildren("/", false).size(), "the whole tree, plus /zookeeper");
                assertArrayEquals(bytes("v" + (NODES - 1)), reader.getData("/n" + (NODES - 1), false, null));
            } finally {
                reader.close();
            }
            awaitGone(dataDir.resolve("resyncRequired"));
            assertTrue(hasSetAside(dataDir), "the unprovable history is kept aside");
            assertTrue(cluster.mode(healthy).servesInEnsemble());
            passed = true;
        } finally {
            Ensembles.closeAndDeleteIfPassed(cluster, passed);
        }
    }

    @Test
    void aFollowerRestartedOnASnapshotHoldingAnotherTreeIsFoundOutAndTakesACopy() throws Exception {
        LocalCluster cluster = start("diverged-snapshot");
        boolean passed = false;
        try {
            cluster.awaitQuorum(TIMEOUT);
            writeNodes(cluster);
            int follower = cluster.followers().get(0);
            Path dataDir = cluster.member(follower).dataDir();
            awaitSnapshots(dataDir);
            cluster.stop(follower);
            DataDamage.rewriteNodeInNewestSnapshot(dataDir, "/n0", "evil");
            cluster.start(follower);
            cluster.awaitServing(follower, TIMEOUT);

            ZooKeeper reader = Ensembles.connect(cluster.connectString(follower), 10_000);
            try {
                long deadline = System.currentTimeMillis() + TIMEOUT.toMillis();
                String seen;
                do {
                    Thread.sleep(100);
                    try {
                        seen = readAfterSync(reader, "/n0");
                    } catch (Exception | AssertionError lost) {
                        // it stops serving (closing its connections) while it takes the copy
                        seen = "unreadable: " + lost;
                    }
                } while (!seen.equals("v0") && System.currentTimeMillis() < deadline);
                assertEquals("v0", seen, "the follower serves the ensemble's tree again");
            } finally {
                reader.close();
            }
            String mntr = FourLetterWordClient.send("127.0.0.1", cluster.member(follower).ports().clientPort(), "mntr",
                    5_000);
            assertTrue(mntr.lines().anyMatch(l -> l.startsWith("zk_digest_mismatches_count\t")
                    && !l.endsWith("\t0")), mntr);
            assertTrue(Files.readString(cluster.member(follower).stderrFile()).contains("its state diverged"));
            passed = true;
        } finally {
            Ensembles.closeAndDeleteIfPassed(cluster, passed);
        }
    }

    private static LocalCluster start(String name) throws Exception {
        String classPath = ManagementFactory.getRuntimeMXBean().getClassPath();
        ClusterSpec spec = ClusterSpec.builder(Flavour.WARDEN, Ensembles.runDir(name), classPath)
                .tickTimeMs(TICK_TIME_MS).configLine("snapCount=100").configLine("4lw.commands.whitelist=*")
                .build();
        LocalCluster cluster = LocalCluster.create(spec);
        cluster.startAll();
        return cluster;
    }

    private static void writeNodes(LocalCluster cluster) throws Exception {
        ZooKeeper zk = Ensembles.connect(cluster.connectString(), 10_000);
        try {
            for (int i = 0; i < NODES; i++) {
                zk.create("/n" + i, bytes("v" + i), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            }
        } finally {
            zk.close();
        }
    }

    private static void awaitSnapshots(Path dataDir) throws Exception {
        long deadline = System.currentTimeMillis() + TIMEOUT.toMillis();
        while (DataDamage.snapshots(dataDir).size() < 3) {
            assertTrue(System.currentTimeMillis() < deadline, "snapshots in " + dataDir);
            Thread.sleep(50);
        }
    }

    private static void awaitGone(Path file) throws Exception {
        long deadline = System.currentTimeMillis() + TIMEOUT.toMillis();
        while (Files.exists(file)) {
            assertTrue(System.currentTimeMillis() < deadline, file + " still there");
            Thread.sleep(50);
        }
    }

    private static boolean hasSetAside(Path dataDir) throws Exception {
        try (var entries = Files.list(dataDir)) {
            return entries.anyMatch(p -> p.getFileName().toString().contains(".set-aside-"));
        }
    }

    private static void sync(ZooKeeper zk) throws Exception {
        CompletableFuture<Integer> synced = new CompletableFuture<>();
        zk.sync("/", (rc, p, ctx) -> synced.complete(rc), null);
        assertEquals(0, synced.get(10, TimeUnit.SECONDS));
    }

    private static String readAfterSync(ZooKeeper zk, String path) throws Exception {
        sync(zk);
        return new String(zk.getData(path, false, null), StandardCharsets.UTF_8);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
