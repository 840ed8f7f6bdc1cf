package dev.warden.server.quorum;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.consensus.CounterLimitedConsensus;
import dev.warden.consensus.Role;
import dev.warden.consensus.Zxid;
import dev.warden.server.ApacheClients;
import dev.warden.server.net.FourLetterWordClient;
import dev.warden.storage.FaultInjectingChannels;
import dev.warden.testsupport.FaultProxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Three real members (Zab core, TCP peer links) in this JVM, driven by the Apache client. */
class EnsembleTest {
    private static final long SERVING_TIMEOUT_MS = 15_000;

    @TempDir
    Path baseDir;
    private TestEnsemble ensemble;
    private final List<ZooKeeper> clients = new ArrayList<>();

    private TestEnsemble start(List<Long> voters, List<Long> observers) throws Exception {
        ensemble = new TestEnsemble(baseDir, voters, observers, ZabConsensus::new);
        ensemble.startAll();
        ensemble.awaitAllServing(SERVING_TIMEOUT_MS);
        return ensemble;
    }

    @AfterEach
    void stop() throws Exception {
        for (ZooKeeper zk : clients) {
            zk.close();
        }
        if (ensemble != null) {
            ensemble.close();
        }
    }

    private ZooKeeper connect(String connectString) throws Exception {
        ZooKeeper zk = ApacheClients.connect(connectString);
        clients.add(zk);
        return zk;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static void sync(ZooKeeper zk, String path) throws Exception {
        CompletableFuture<Integer> synced = new CompletableFuture<>();
        zk.sync(path, (rc, p, ctx) -> synced.complete(rc), null);
        assertEquals(0, synced.get(10, TimeUnit.SECONDS));
    }

    private long leader() {
        List<Long> leaders = new ArrayList<>();
        ensemble.servers().forEach((id, server) -> {
            if (server.member().role() == Role.LEADING && server.member().isServing()) {
                leaders.add(id);
            }
        });
        assertEquals(1, leaders.size(), "exactly one serving leader: " + leaders);
        return leaders.get(0);
    }

    private long aFollower() {
        long leader = leader();
        return ensemble.servers().keySet().stream().filter(id -> id != leader).findFirst().orElseThrow();
    }

    @Test
    void writeThroughFollowerIsReadableOnEveryMemberAfterSync() throws Exception {
        start(List.of(1L, 2L, 3L), List.of());
        long follower = aFollower();
        ZooKeeper writer = connect(ensemble.connectString(follower));
        writer.create("/a", bytes("one"), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        writer.setData("/a", bytes("two"), 0);
        for (long id : List.of(1L, 2L, 3L)) {
            ZooKeeper reader = connect(ensemble.connectString(id));
            sync(reader, "/a");
            assertArrayEquals(bytes("two"), reader.getData("/a", false, null));
        }
    }

    @Test
    void zookeeperConfigListsTheMembersOnEveryMember() throws Exception {
        start(List.of(1L, 2L, 3L), List.of());
        String first = null;
        for (long id : List.of(1L, 2L, 3L)) {
            ZooKeeper reader = connect(ensemble.connectString(id));
            String config = new String(reader.getConfig(false, null), java.nio.charset.StandardCharsets.UTF_8);
            for (long member : List.of(1L, 2L, 3L)) {
                assertTrue(config.contains("server." + member + "="), config);
            }
            assertTrue(config.contains(":participant"), config);
            assertTrue(config.endsWith("version=0"), config);
            if (first == null) {
                first = config;
            }
            assertEquals(first, config, "every member shows the same ensemble");
        }
    }

    @Test
    void newLeaderAfterLeaderStopsAndNoAcknowledgedWriteIsLost() throws Exception {
        start(List.of(1L, 2L, 3L), List.of());
        ZooKeeper zk = connect(ensemble.connectStringAll());
        List<String> acknowledged = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            acknowledged.add(zk.create("/n-", bytes("v"), ZooDefs.Ids.OPEN_ACL_UNSAFE,
                    CreateMode.PERSISTENT_SEQUENTIAL));
        }
        long oldLeader = leader();
        ensemble.stop(oldLeader);
        long started = System.currentTimeMillis();
        long newLeader = ensemble.awaitNewLeader(oldLeader, SERVING_TIMEOUT_MS);
        assertNotEquals(oldLeader, newLeader);
        long electionMs = System.currentTimeMillis() - started;
        // The client fails over to a remaining member and keeps its session; a request in flight
        // when its connection broke fails with CONNECTIONLOSS and is retried, as clients do.
        for (int i = 0; i < 20; i++) {
            acknowledged.add(createRetrying(zk, "/n-"));
        }
        for (long id : ensemble.servers().keySet()) {
            ZooKeeper reader = connect(ensemble.connectString(id));
            sync(reader, "/");
            List<String> children = reader.getChildren("/", false);
            for (String path : acknowledged) {
                assertEquals(true, children.contains(path.substring(1)), path + " missing on member " + id);
            }
        }
        assertEquals(true, electionMs < 10_000, "election took " + electionMs + " ms");
    }

    @Test
    void writesRefusedBeforeTheNewLeaderProposedAnythingAreAnsweredAtOnce() throws Exception {
        start(List.of(1L, 2L, 3L), List.of());
        long oldLeader = leader();
        List<ZooKeeper> survivors = new ArrayList<>();
        for (long id : List.of(1L, 2L, 3L)) {
            if (id != oldLeader) {
                survivors.add(connect(ensemble.connectString(id)));
            }
        }
        survivors.get(0).create("/there", bytes("x"), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        ensemble.stop(oldLeader);
        ensemble.awaitNewLeader(oldLeader, SERVING_TIMEOUT_MS);
        for (ZooKeeper zk : survivors) {
            awaitReconnected(zk);
        }
        // The sessions re-attach without a transaction, so the new term's first requests are
        // refused ones, on the new leader and on its follower: nothing else will be applied to
        // let them through, so they must not wait for a later write.
        List<CompletableFuture<Integer>> results = new ArrayList<>();
        for (ZooKeeper zk : survivors) {
            CompletableFuture<Integer> rc = new CompletableFuture<>();
            zk.create("/there", bytes("y"), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT,
                    (code, path, ctx, name) -> rc.complete(code), null);
            results.add(rc);
        }
        for (CompletableFuture<Integer> rc : results) {
            assertEquals(KeeperException.Code.NODEEXISTS.intValue(), rc.get(5, TimeUnit.SECONDS));
        }
    }

    /** Reads until one succeeds: the member dropped the connection when it lost its leader. */
    private static void awaitReconnected(ZooKeeper zk) throws Exception {
        long deadline = System.currentTimeMillis() + SERVING_TIMEOUT_MS;
        while (true) {
            try {
                zk.exists("/", false);
                return;
            } catch (KeeperException.ConnectionLossException e) {
                if (System.currentTimeMillis() > deadline) {
                    throw e;
                }
                Thread.sleep(50);
            }
        }
    }

    @Test
    void restartedMemberCatchesUpAndWipedMemberGetsASnapshot() throws Exception {
        start(List.of(1L, 2L, 3L), List.of());
        long follower = aFollower();
        ZooKeeper zk = connect(ensemble.connectString(leader()));
        zk.create("/before", bytes("x"), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        ensemble.stop(follower);
        for (int i = 0; i < 30; i++) {
            zk.create("/while-down-" + i, bytes("y"), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        }
        ensemble.start(follower);
        ensemble.awaitServing(follower, SERVING_TIMEOUT_MS);
        ZooKeeper reader = connect(ensemble.connectString(follower));
        sync(reader, "/");
        assertArrayEquals(bytes("y"), reader.getData("/while-down-29", false, null));

        long other = aFollower();
        ensemble.stop(other);
        wipe(ensemble.dataDir(other));
        zk.create("/after-wipe", bytes("z"), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        ensemble.start(other);
        ensemble.awaitServing(other, SERVING_TIMEOUT_MS);
        ZooKeeper wiped = connect(ensemble.connectString(other));
        sync(wiped, "/");
        assertArrayEquals(bytes("x"), wiped.getData("/before", false, null));
        assertArrayEquals(bytes("z"), wiped.getData("/after-wipe", false, null));
    }

    @Test
    void followerFurtherBehindThanTheDiffBudgetIsSentASnapshotAndCatchesUp() throws Exception {
        start(List.of(1L, 2L, 3L), List.of());
        long follower = aFollower();
        ZooKeeper zk = connect(ensemble.connectString(leader()));
        byte[] value = new byte[100 * 1024];
        zk.create("/big", value, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        ensemble.stop(follower);
        // the tree stays about 100 KiB, so the budget is its 1 MiB floor; the follower misses 2.4 MiB
        long lastZxid = 0;
        for (int i = 0; i < 24; i++) {
            value[0] = (byte) i;
            lastZxid = zk.setData("/big", value, -1).getMzxid();
        }
        ensemble.start(follower);
        ensemble.awaitServing(follower, SERVING_TIMEOUT_MS);
        ZooKeeper reader = connect(ensemble.connectString(follower));
        sync(reader, "/");
        assertArrayEquals(value, reader.getData("/big", false, null));
        long snapshotZxid = newestSnapshotZxid(ensemble.dataDir(follower).resolve("snapshots"));
        assertTrue(snapshotZxid >= lastZxid, "the follower installed the leader's snapshot (newest snapshot 0x"
                + Long.toHexString(snapshotZxid) + ", last write 0x" + Long.toHexString(lastZxid) + ")");
    }

    private static long newestSnapshotZxid(Path dir) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(path -> path.getFileName().toString())
                    .filter(name -> name.matches("snapshot\\.[0-9a-f]{16}"))
                    .mapToLong(name -> Long.parseUnsignedLong(name.substring("snapshot.".length()), 16))
                    .max().orElse(-1);
        }
    }

    @Test
    void observerServesReadsAndForwardsWrites() throws Exception {
        start(List.of(1L, 2L, 3L), List.of(4L));
        assertEquals(Role.OBSERVING, ensemble.server(4).member().role());
        ZooKeeper viaObserver = connect(ensemble.connectString(4));
        viaObserver.create("/obs", bytes("o"), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        assertArrayEquals(bytes("o"), viaObserver.getData("/obs", false, null));
        ZooKeeper viaLeader = connect(ensemble.connectString(leader()));
        viaLeader.setData("/obs", bytes("p"), -1);
        sync(viaObserver, "/obs");
        assertArrayEquals(bytes("p"), viaObserver.getData("/obs", false, null));

        long leader = leader();
        for (long id : List.of(1L, 2L, 3L, 4L)) {
            String expected = id == 4 ? "observer" : id == leader ? "leader" : "follower";
            String srvr = fourLetterWord(ensemble.connectString(id), "srvr");
            assertEquals(true, srvr.contains("Mode: " + expected + "\n"), "member " + id + ": " + srvr);
        }
        String mntr = fourLetterWord(ensemble.connectString(leader), "mntr");
        assertEquals(true, mntr.contains("zk_server_state\tleader"), mntr);
        assertEquals(true, mntr.contains("zk_synced_followers\t2"), mntr);
        assertEquals(true, mntr.contains("zk_synced_observers\t1"), mntr);
    }

    static String fourLetterWord(String connectString, String word) throws Exception {
        return FourLetterWordClient.ask(connectString, word);
    }

    @Test
    void expiryDecidedByTheLeaderRemovesEphemeralsEverywhere() throws Exception {
        start(List.of(1L, 2L, 3L), List.of());
        long follower = aFollower();
        try (FaultProxy proxy = FaultProxy.start(ensemble.connectString(follower))) {
            ZooKeeper doomed = new ZooKeeper(proxy.address(), 1_000, event -> { });
            clients.add(doomed);
            long deadline = System.currentTimeMillis() + 10_000;
            while (doomed.getState() != ZooKeeper.States.CONNECTED && System.currentTimeMillis() < deadline) {
                Thread.sleep(10);
            }
            doomed.create("/eph", bytes(""), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL);
            // Freeze the client: it stops pinging but its TCP connection to the follower stays open.
            proxy.pause();
            for (long id : List.of(1L, 2L, 3L)) {
                MemberPipelineTest.awaitGone(connect(ensemble.connectString(id)), "/eph");
            }
            proxy.resume();
        }
    }


    @Test
    void followerWhoseDiskFailsStopsServingAndTheOthersCarryOn() throws Exception {
        ensemble = new TestEnsemble(baseDir, List.of(1L, 2L, 3L), List.of(), ZabConsensus::new);
        FaultInjectingChannels disk = new FaultInjectingChannels();
        ensemble.start(3, disk);
        ensemble.startAll();
        ensemble.awaitAllServing(SERVING_TIMEOUT_MS);
        if (leader() == 3) {
            // The failing disk is meant for a follower: move leadership away.
            ensemble.stop(3);
            ensemble.awaitNewLeader(3, SERVING_TIMEOUT_MS);
            disk = new FaultInjectingChannels();
            ensemble.start(3, disk);
            ensemble.awaitServing(3, SERVING_TIMEOUT_MS);
        }
        ZooKeeper zk = connect(ensemble.connectString(leader()));
        zk.create("/before", bytes("x"), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        disk.limitWritesTo(0);
        for (int i = 0; i < 10; i++) {
            zk.create("/during-" + i, bytes("y"), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        }
        long deadline = System.currentTimeMillis() + SERVING_TIMEOUT_MS;
        while (ensemble.server(3).member().isServing() && System.currentTimeMillis() < deadline) {
            Thread.sleep(20);
        }
        assertEquals(false, ensemble.server(3).member().isServing(), "member 3 still serves with a failed disk");
        assertEquals(true, fourLetterWord(ensemble.connectString(3), "srvr").contains("not currently serving"));
        assertArrayEquals(bytes("y"), zk.getData("/during-9", false, null));
    }

    /**
     * The leader's log is written on a thread of its own, so a leader whose fsync hangs longer
     * than syncLimit (5 s in these ensembles) still pings its followers: nobody drops it, and
     * writes commit meanwhile on the followers' acknowledgements.
     */
    @Test
    void aLeaderWhoseFsyncHangsPastSyncLimitKeepsLeadingAndWritesCommitThroughItsFollowers() throws Exception {
        ensemble = new TestEnsemble(baseDir, List.of(1L, 2L, 3L), List.of(), ZabConsensus::new);
        Map<Long, FaultInjectingChannels> disks = new java.util.TreeMap<>();
        for (long id : List.of(1L, 2L, 3L)) {
            disks.put(id, new FaultInjectingChannels());
            ensemble.start(id, disks.get(id));
        }
        ensemble.awaitAllServing(SERVING_TIMEOUT_MS);
        long leader = leader();
        long follower = aFollower();
        ZooKeeper zk = connect(ensemble.connectString(follower));
        zk.create("/before", bytes("x"), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        Map<Long, Long> roleChanges = roleChanges();
        long hangMs = 7_000;
        long hangStartedNs = System.nanoTime();
        disks.get(leader).delayForcesBy(hangMs);
        zk.create("/during", bytes("y"), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        long committedAfterMs = (System.nanoTime() - hangStartedNs) / 1_000_000;
        // outlast the hang of the fsync already waiting, well past syncLimit
        Thread.sleep(Math.max(0, hangMs + 500 - (System.nanoTime() - hangStartedNs) / 1_000_000));
        disks.get(leader).delayForcesBy(0);
        assertEquals(true, committedAfterMs < hangMs, "the write waited " + committedAfterMs + " ms for the leader's disk");
        assertEquals(leader, leader(), "the same leader throughout");
        assertEquals(roleChanges, roleChanges(), "no member changed role (no election)");
        ZooKeeper atLeader = connect(ensemble.connectString(leader));
        atLeader.create("/after", bytes("z"), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        for (long id : List.of(1L, 2L, 3L)) {
            ZooKeeper reader = connect(ensemble.connectString(id));
            sync(reader, "/after");
            assertArrayEquals(bytes("y"), reader.getData("/during", false, null));
            assertArrayEquals(bytes("z"), reader.getData("/after", false, null));
        }
    }

    @Test
    void zxidCounterExhaustionMovesToTheNextEpochWithoutAnElection() throws Exception {
        long counterLimit = 10;
        ensemble = new TestEnsemble(baseDir, List.of(1L, 2L, 3L), List.of(),
                resources -> new CounterLimitedConsensus(resources, counterLimit));
        ensemble.startAll();
        ensemble.awaitAllServing(SERVING_TIMEOUT_MS);
        long leader = leader();
        long follower = aFollower();
        ZooKeeper zk = connect(ensemble.connectString(follower));
        Map<Long, Long> roleChanges = roleChanges();
        zk.create("/c", bytes(""), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        long firstEpoch = Zxid.epoch(zk.exists("/c", false).getMzxid());
        for (int i = 0; i < 3 * counterLimit; i++) {
            zk.setData("/c", bytes("v" + i), i);
        }
        long lastZxid = zk.exists("/c", false).getMzxid();
        assertEquals(true, Zxid.epoch(lastZxid) >= firstEpoch + 2, "epoch of " + Zxid.hex(lastZxid));
        assertEquals(leader, leader(), "the same leader throughout");
        assertEquals(roleChanges, roleChanges(), "no member changed role (no election)");
        for (long id : List.of(1L, 2L, 3L)) {
            ZooKeeper reader = connect(ensemble.connectString(id));
            sync(reader, "/c");
            assertArrayEquals(bytes("v" + (3 * counterLimit - 1)), reader.getData("/c", false, null));
        }
    }

    private Map<Long, Long> roleChanges() {
        Map<Long, Long> counts = new java.util.TreeMap<>();
        ensemble.servers().forEach((id, server) -> counts.put(id, server.member().roleChanges()));
        return counts;
    }

    private static String createRetrying(ZooKeeper zk, String path) throws Exception {
        for (int attempt = 0; ; attempt++) {
            try {
                return zk.create(path, bytes("v"), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT_SEQUENTIAL);
            } catch (KeeperException.ConnectionLossException e) {
                if (attempt >= 20) {
                    throw e;
                }
                Thread.sleep(250);
            }
        }
    }

    private static void wipe(Path dir) throws Exception {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
    }

}
