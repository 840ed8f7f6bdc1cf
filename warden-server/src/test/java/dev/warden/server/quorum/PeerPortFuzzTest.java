package dev.warden.server.quorum;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.consensus.Role;
import dev.warden.server.ApacheClients;
import dev.warden.server.config.QuorumMember;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Strangers at the leader's peer and election ports of a running three-member ensemble while a
 * client keeps writing through it: noise, lying and huge length fields, floods, bad and
 * truncated hellos, hellos naming non-members and, rarely, a hello naming a real member
 * followed by frames that cannot decode. Each refused connection must be closed at once, the
 * ensemble must keep serving and agree at the end, and Netty's direct memory must stay small.
 *
 * <p>Set WARDEN_FUZZ_SEED (or -Dwarden.fuzz.seed) to replay; the seed in use is printed. Thread
 * timing still varies between runs, so a replay repeats the inputs, not their interleaving.
 */
class PeerPortFuzzTest {
    private static final int FUZZ_THREADS = 3;
    /** Connections to open, unless {@link #FUZZ_TIME_MS} runs out first. */
    private static final long CONNECTION_BUDGET = 30_000;
    private static final long FUZZ_TIME_MS = 15_000;
    /** Below this many connections the run proves little: the machine was too slow or the port hung. */
    private static final long MIN_CONNECTIONS = 1_500;
    private static final long MIN_ACKNOWLEDGED_WRITES = 50;
    private static final long SERVING_TIMEOUT_MS = 30_000;
    /** Several pooled chunks; a flood the ports buffered would take far more. */
    private static final long MAX_DIRECT_GROWTH_BYTES = 48L << 20;

    @TempDir
    Path baseDir;

    @Test
    void strangersAtThePeerPortsNeitherStopTheEnsembleNorGrowItsMemory() throws Exception {
        long seed = seed();
        System.out.println("PeerPortFuzzTest seed " + seed + " (replay with WARDEN_FUZZ_SEED=" + seed + ")");
        List<Long> ids = List.of(1L, 2L, 3L);
        try (TestEnsemble ensemble = new TestEnsemble(baseDir, ids, List.of(), ZabConsensus::new)) {
            ensemble.startAll();
            ensemble.awaitAllServing(SERVING_TIMEOUT_MS);
            long target = leader(ensemble);
            QuorumMember targetMember = ensemble.config(target).members().get(target);
            List<InetSocketAddress> ports = List.of(
                    new InetSocketAddress(targetMember.host(), targetMember.peerPort()),
                    new InetSocketAddress(targetMember.host(), targetMember.electionPort()));
            long helloTimeoutMs = ZabConsensus.helloTimeoutMs(ensemble.config(target));
            long promptCloseMs = helloTimeoutMs - 1_000; // closed sooner than this: not by the timeout

            AtomicBoolean stopWriter = new AtomicBoolean();
            EnsembleWriter writer = new EnsembleWriter(ensemble.connectStringAll(), stopWriter);
            Thread writerThread = new Thread(writer, "ensemble-writer");
            writerThread.start();
            awaitAcknowledged(writer, 10);
            long roleChangesBefore = roleChanges(ensemble);

            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong budget = new AtomicLong(CONNECTION_BUDGET);
            AtomicLong maxFloodBytes = new AtomicLong();
            Map<PeerPortFuzzer.Scenario, AtomicLong> played = new EnumMap<>(PeerPortFuzzer.Scenario.class);
            for (PeerPortFuzzer.Scenario s : PeerPortFuzzer.Scenario.values()) {
                played.put(s, new AtomicLong());
            }
            List<PeerPortFuzzer> fuzzers = new ArrayList<>();
            List<Thread> threads = new ArrayList<>();
            long acknowledgedBefore = writer.acknowledged();
            long startedMs = System.currentTimeMillis();
            long directGrowthBytes;
            try (DirectMemoryWatch memory = DirectMemoryWatch.start()) {
                for (int i = 0; i < FUZZ_THREADS; i++) {
                    PeerPortFuzzer fuzzer = new PeerPortFuzzer(ports, seed + i, target, ids, helloTimeoutMs,
                            promptCloseMs, budget, stop, played, maxFloodBytes);
                    fuzzers.add(fuzzer);
                    Thread thread = new Thread(fuzzer, "peer-fuzzer-" + i);
                    threads.add(thread);
                    thread.start();
                }
                for (Thread thread : threads) {
                    thread.join(Math.max(1, FUZZ_TIME_MS - (System.currentTimeMillis() - startedMs)));
                }
                stop.set(true);
                for (Thread thread : threads) {
                    thread.join();
                }
                directGrowthBytes = memory.maxGrowthBytes();
            }
            long elapsedMs = System.currentTimeMillis() - startedMs;
            long acknowledgedDuring = writer.acknowledged() - acknowledgedBefore;
            long connections = CONNECTION_BUDGET - Math.max(0, budget.get());
            System.out.println("PeerPortFuzzTest: " + connections + " connections to member " + target + " (leader) in "
                    + elapsedMs + " ms: " + played + "; writes acknowledged meanwhile " + acknowledgedDuring
                    + ", connection losses " + writer.connectionLosses() + ", sessions " + writer.sessions()
                    + ", role changes " + (roleChanges(ensemble) - roleChangesBefore) + "; largest flood taken "
                    + maxFloodBytes.get() + " bytes; direct memory grew by at most " + directGrowthBytes + " bytes");

            for (PeerPortFuzzer fuzzer : fuzzers) {
                assertNull(fuzzer.failure(), () -> "fuzzer failed: " + fuzzer.failure());
            }
            assertTrue(connections >= MIN_CONNECTIONS, "only " + connections + " connections in " + elapsedMs + " ms");
            assertTrue(directGrowthBytes < MAX_DIRECT_GROWTH_BYTES, "Netty's direct memory grew by "
                    + directGrowthBytes + " bytes");
            assertTrue(acknowledgedDuring >= MIN_ACKNOWLEDGED_WRITES, "only " + acknowledgedDuring
                    + " writes were acknowledged during the fuzz");

            // The ensemble recovers from whatever the impersonations disturbed and keeps serving.
            long acknowledgedAfter = writer.acknowledged();
            awaitAcknowledged(writer, acknowledgedAfter + 20);
            stopWriter.set(true);
            writerThread.join();
            assertNull(writer.failure(), "the writer saw a wrong answer or an unexpected error");
            awaitOneLeaderAndAllServing(ensemble);
            everyMemberAgrees(ensemble, ids, writer);
        }
    }

    private static long seed() {
        String fixed = System.getenv("WARDEN_FUZZ_SEED");
        if (fixed == null || fixed.isBlank()) {
            fixed = System.getProperty("warden.fuzz.seed");
        }
        return fixed != null && !fixed.isBlank() ? Long.parseLong(fixed.trim()) : new Random().nextLong();
    }

    private static long leader(TestEnsemble ensemble) {
        return ensemble.servers().entrySet().stream()
                .filter(e -> e.getValue().member().role() == Role.LEADING)
                .map(Map.Entry::getKey).findFirst().orElseThrow(() -> new AssertionError("no leader"));
    }

    /**
     * Every member serves and exactly one leads. Serving alone is not enough: a leader that
     * lost its followers to impersonated hellos still says it leads until its sync limit runs out.
     */
    private static void awaitOneLeaderAndAllServing(TestEnsemble ensemble) throws InterruptedException {
        long deadlineMs = System.currentTimeMillis() + SERVING_TIMEOUT_MS;
        while (true) {
            boolean allServing = ensemble.servers().values().stream().allMatch(s -> s.member().isServing());
            long leaders = ensemble.servers().values().stream().filter(s -> s.member().role() == Role.LEADING).count();
            if (allServing && leaders == 1) {
                return;
            }
            if (System.currentTimeMillis() > deadlineMs) {
                throw new AssertionError("no single leader with every member serving within " + SERVING_TIMEOUT_MS
                        + " ms: " + leaders + " leaders, all serving " + allServing);
            }
            Thread.sleep(10);
        }
    }

    private static long roleChanges(TestEnsemble ensemble) {
        return ensemble.servers().values().stream().mapToLong(s -> s.member().roleChanges()).sum();
    }

    private static void awaitAcknowledged(EnsembleWriter writer, long count) throws InterruptedException {
        long deadlineMs = System.currentTimeMillis() + SERVING_TIMEOUT_MS;
        while (writer.acknowledged() < count) {
            if (writer.failure() != null) {
                throw new AssertionError("the writer failed: " + writer.failure());
            }
            if (System.currentTimeMillis() > deadlineMs) {
                throw new AssertionError("the writer got only " + writer.acknowledged() + " of " + count
                        + " writes acknowledged within " + SERVING_TIMEOUT_MS + " ms");
            }
            Thread.sleep(10);
        }
    }

    /**
     * A write through each member is read back on every member after a sync, and every member
     * holds the same value of the writer's node: its last acknowledged write, or a later one
     * whose answer was lost.
     */
    private static void everyMemberAgrees(TestEnsemble ensemble, List<Long> ids, EnsembleWriter writer)
            throws Exception {
        for (long via : ids) {
            try (ZooKeeper zk = ApacheClients.connect(ensemble.connectString(via))) {
                zk.create("/after-fuzz-" + via, Long.toString(via).getBytes(StandardCharsets.UTF_8),
                        ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            }
        }
        byte[] first = null;
        for (long id : ids) {
            try (ZooKeeper zk = ApacheClients.connect(ensemble.connectString(id))) {
                EnsembleTest.sync(zk, "/");
                for (long via : ids) {
                    assertArrayEquals(Long.toString(via).getBytes(StandardCharsets.UTF_8),
                            zk.getData("/after-fuzz-" + via, false, null), "member " + id + " reads the write via " + via);
                }
                byte[] value = zk.getData(EnsembleWriter.PATH, false, null);
                long written = Long.parseLong(new String(value, StandardCharsets.UTF_8));
                assertTrue(written >= writer.lastAcknowledged() && written <= writer.lastAttempted(),
                        "member " + id + " holds write " + written + "; acknowledged up to " + writer.lastAcknowledged()
                                + ", attempted up to " + writer.lastAttempted());
                if (first == null) {
                    first = value;
                }
                assertArrayEquals(first, value, "member " + id + " agrees with member " + ids.get(0));
            }
        }
    }
}
