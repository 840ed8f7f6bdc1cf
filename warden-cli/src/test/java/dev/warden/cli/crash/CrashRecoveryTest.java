package dev.warden.cli.crash;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs {@code warden server} as a real child process and kills it (SIGKILL / SIGTERM) under a
 * write load from the Apache ZooKeeper client, damages its log the ways a disk can, and checks
 * what survives. Set WARDEN_CRASH_SEED to replay a run; the seed in use is printed.
 */
@DisabledOnOs(OS.WINDOWS) // destroy() is not SIGTERM there
class CrashRecoveryTest {
    private static final int WORKERS = 4;
    private static final int KILL_CYCLES = 20;
    /** Small, so a kill/restart run crosses several snapshots and log segments. */
    private static final int SMALL_SNAP_COUNT = 500;
    /** Large, so no snapshot hides what a cut log lost. */
    private static final int NO_SNAPSHOT_SNAP_COUNT = 1_000_000;

    @TempDir
    Path dir;
    private Path dataDir;
    private long seed;
    private Random random;
    private int starts;

    @BeforeEach
    void seed() {
        String fixed = System.getenv("WARDEN_CRASH_SEED");
        seed = fixed != null ? Long.parseLong(fixed) : new Random().nextLong();
        System.out.println("CrashRecoveryTest seed " + seed + " (replay with WARDEN_CRASH_SEED=" + seed + ")");
        random = new Random(seed);
        dataDir = dir.resolve("data");
    }

    @Test
    void killNineAtRandomMomentsLosesNoAcknowledgedWriteAndLeavesNoHalfWrite() throws Exception {
        Path config = ServerProcess.writeConfig(dir, dataDir, SMALL_SNAP_COUNT);
        List<Ledger> ledgers = ledgers();
        ServerProcess server = start(config);
        try {
            prepareRoot(server.connectString(), ledgers);
            int acknowledged = 0;
            for (int cycle = 0; cycle < KILL_CYCLES; cycle++) {
                LoadRun load = LoadRun.start(server.connectString(), ledgers, cycle, seed);
                Thread.sleep(150 + random.nextInt(1000));
                server.kill9();
                load.stopAndJoin();
                int killed = cycle;
                assertNull(load.unexpected(), () -> "cycle " + killed + " got a wrong answer: " + load.unexpected());
                acknowledged += load.acknowledged();
                server = start(config);
                verify(server.connectString(), ledgers, cycle == KILL_CYCLES - 1);
            }
            System.out.println("CrashRecoveryTest: " + KILL_CYCLES + " kill -9 cycles, " + acknowledged
                    + " acknowledged writes, " + LogFiles.segments(dataDir).size() + " log segments, "
                    + snapshotCount() + " snapshots; in-flight requests at the kills found applied "
                    + ledgers.stream().mapToInt(l -> l.inFlightApplied).sum() + ", absent "
                    + ledgers.stream().mapToInt(l -> l.inFlightAbsent).sum()
                    + " (sequential creates in flight are checked for double application only)");
            assertTrue(acknowledged >= KILL_CYCLES, "the load barely ran: " + acknowledged + " writes");
            assertTrue(snapshotCount() > 0, "no snapshot was taken: raise the load or lower snapCount");
            assertEquals(0, server.terminate(), "exit status after SIGTERM");
        } finally {
            server.close();
        }
    }

    @Test
    void tornLastRecordIsCutOffAndEverythingBeforeItSurvives() throws Exception {
        Path config = ServerProcess.writeConfig(dir, dataDir, NO_SNAPSHOT_SNAP_COUNT);
        ServerProcess server = start(config);
        Map<String, Long> czxidByPath = new LinkedHashMap<>();
        Map<String, byte[]> dataByPath = new LinkedHashMap<>();
        try {
            ZooKeeper zk = LoadRun.connect(server.connectString());
            zk.create(Ledger.ROOT, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            long killAtNs = System.nanoTime() + (300 + random.nextInt(700)) * 1_000_000L;
            for (int i = 0; System.nanoTime() < killAtNs; i++) {
                byte[] data = new byte[1 + random.nextInt(300)];
                random.nextBytes(data);
                Stat stat = new Stat();
                String path = zk.create(Ledger.ROOT + "/t" + i, data, ZooDefs.Ids.OPEN_ACL_UNSAFE,
                        CreateMode.PERSISTENT, stat);
                czxidByPath.put(path, stat.getCzxid());
                dataByPath.put(path, data);
            }
            server.kill9();
            zk.close(1000);
        } finally {
            server.close();
        }
        Path segment = LogFiles.newestSegment(dataDir);
        List<LogFiles.Entry> entries = LogFiles.entries(segment);
        LogFiles.Entry last = entries.get(entries.size() - 1);
        long cutAt = last.offsetBytes() + LogFiles.LENGTH_AND_CRC_BYTES + last.length() / 2;
        LogFiles.truncate(segment, cutAt);

        server = start(config);
        try {
            assertTrue(server.output().contains("torn tail"), "no warning about the torn tail:\n" + server.output());
            ZooKeeper zk = LoadRun.connect(server.connectString());
            int survivors = 0;
            for (Map.Entry<String, Long> created : czxidByPath.entrySet()) {
                String path = created.getKey();
                if (created.getValue() < last.zxid()) {
                    assertArrayEquals(dataByPath.get(path), zk.getData(path, false, null), path + " before the cut");
                    survivors++;
                } else {
                    assertNull(zk.exists(path, false), path + " was in the torn record, so it must be gone");
                }
            }
            // the cut log must take appends again at the right place
            zk.create(Ledger.ROOT + "/after-cut", new byte[] {1}, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            zk.close();
            System.out.println("torn tail: cut " + segment.getFileName() + " at " + cutAt + " inside zxid 0x"
                    + Long.toHexString(last.zxid()) + "; " + survivors + " of " + czxidByPath.size() + " creates before it");
            assertTrue(survivors > 0, "nothing was written before the cut");
            assertEquals(0, server.terminate());
        } finally {
            server.close();
        }
        server = start(config);
        try {
            ZooKeeper zk = LoadRun.connect(server.connectString());
            assertTrue(zk.exists(Ledger.ROOT + "/after-cut", false) != null, "a write after the cut was lost");
            zk.close();
        } finally {
            server.close();
        }
    }

    @Test
    void flippedByteBeforeTheTailOfTheNewestSegmentStopsTheServerNamingFileAndOffset() throws Exception {
        Path config = ServerProcess.writeConfig(dir, dataDir, NO_SNAPSHOT_SNAP_COUNT);
        runLoadThenKill(config, 1);
        assertStartRefusedAfterFlippingAByteIn(config, LogFiles.newestSegment(dataDir));
    }

    @Test
    void flippedByteInASegmentBeforeTheNewestSnapshotIsSetAsideAndNoAcknowledgedWriteIsLost() throws Exception {
        Path config = ServerProcess.writeConfig(dir, dataDir, SMALL_SNAP_COUNT);
        // each segment after the first began with a snapshot; with four, at most the last of those
        // snapshots can be unfinished at the kill, so the oldest segment lies wholly before a valid one
        List<Ledger> ledgers = runLoadThenKill(config, 4);
        Path oldest = LogFiles.segments(dataDir).get(0);
        List<LogFiles.Entry> entries = LogFiles.entries(oldest);
        LogFiles.flipByte(oldest, entries.get(entries.size() / 2).offsetBytes() + LogFiles.LENGTH_AND_CRC_BYTES + 4);
        ServerProcess server = start(config);
        try {
            assertTrue(server.output().contains("Setting aside log segment " + oldest), server.output());
            verify(server.connectString(), ledgers, true);
            assertEquals(0, server.terminate());
        } finally {
            server.close();
        }
        try (Stream<Path> entriesInDataDir = Files.list(dataDir)) {
            assertTrue(entriesInDataDir.anyMatch(p -> p.getFileName().toString().startsWith("log.set-aside-")));
        }
    }

    /** Writes until the log has at least {@code minSegments} segments (and a while longer), then kill -9. */
    private List<Ledger> runLoadThenKill(Path config, int minSegments) throws Exception {
        List<Ledger> ledgers = ledgers();
        ServerProcess server = start(config);
        try {
            prepareRoot(server.connectString(), ledgers);
            LoadRun load = LoadRun.start(server.connectString(), ledgers, 0, seed);
            long deadlineNs = System.nanoTime() + 30_000_000_000L;
            do {
                Thread.sleep(800);
            } while (LogFiles.segments(dataDir).size() < minSegments && System.nanoTime() < deadlineNs);
            load.stopAndJoin();
            assertNull(load.unexpected());
            server.kill9();
        } finally {
            server.close();
        }
        assertTrue(LogFiles.segments(dataDir).size() >= minSegments, "the load did not fill " + minSegments
                + " log segments");
        return ledgers;
    }

    private void assertStartRefusedAfterFlippingAByteIn(Path config, Path segment) throws Exception {
        List<LogFiles.Entry> entries = LogFiles.entries(segment);
        assertTrue(entries.size() >= 3, "too few records to damage one in the middle: " + entries.size());
        LogFiles.Entry victim = entries.get(1 + random.nextInt(entries.size() - 2));
        long flipAt = victim.offsetBytes() + LogFiles.LENGTH_AND_CRC_BYTES + victim.length() / 2;
        LogFiles.flipByte(segment, flipAt);

        ServerProcess damaged = ServerProcess.launch(config, dir.resolve("corrupt-start.log"));
        int exit = damaged.awaitExit();
        String output = damaged.output();
        System.out.println("corruption: flipped byte " + flipAt + " of the record at " + victim.offsetBytes()
                + " (of " + entries.size() + ") in " + segment.getFileName() + " (of "
                + LogFiles.segments(dataDir).size() + " segments); exit " + exit);
        assertEquals(2, exit, "the server must refuse a log damaged before its tail:\n" + output);
        assertFalse(output.contains("Warden serving on"), output);
        assertTrue(output.contains(segment + " is damaged: at byte offset " + victim.offsetBytes()),
                "the message must name the file and the record's offset:\n" + output);
    }

    @Test
    void sigtermUnderLoadExitsZeroAndKeepsEveryAcknowledgedWrite() throws Exception {
        Path config = ServerProcess.writeConfig(dir, dataDir, SMALL_SNAP_COUNT);
        List<Ledger> ledgers = ledgers();
        ServerProcess server = start(config);
        try {
            prepareRoot(server.connectString(), ledgers);
            LoadRun load = LoadRun.start(server.connectString(), ledgers, 0, seed);
            Thread.sleep(500 + random.nextInt(1000));
            assertEquals(0, server.terminate(), "exit status after SIGTERM:\n" + server.output());
            load.stopAndJoin();
            assertNull(load.unexpected());
            assertTrue(load.acknowledged() > 0, "the load did not run");
            server = start(config);
            verify(server.connectString(), ledgers, true);
            assertEquals(0, server.terminate());
        } finally {
            server.close();
        }
    }

    private ServerProcess start(Path config) throws Exception {
        return ServerProcess.start(config, dir.resolve("server-" + (starts++) + ".log"));
    }

    private static List<Ledger> ledgers() {
        List<Ledger> ledgers = new ArrayList<>();
        for (int i = 0; i < WORKERS; i++) {
            ledgers.add(new Ledger(i));
        }
        return ledgers;
    }

    private static void prepareRoot(String connectString, List<Ledger> ledgers) throws Exception {
        ZooKeeper zk = LoadRun.connect(connectString);
        try {
            zk.create(Ledger.ROOT, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            for (Ledger ledger : ledgers) {
                zk.create(ledger.counterPath(), Ledger.counterData(0), ZooDefs.Ids.OPEN_ACL_UNSAFE,
                        CreateMode.PERSISTENT);
            }
        } finally {
            zk.close();
        }
    }

    private static void verify(String connectString, List<Ledger> ledgers, boolean checkAllData) throws Exception {
        ZooKeeper zk = LoadRun.connect(connectString);
        try {
            Set<String> children = new HashSet<>(zk.getChildren(Ledger.ROOT, false));
            for (Ledger ledger : ledgers) {
                ledger.verify(zk, children, checkAllData);
            }
        } catch (KeeperException e) {
            throw new AssertionError("reading back the recovered tree failed", e);
        } finally {
            zk.close();
        }
    }

    private long snapshotCount() throws Exception {
        Path snapshots = dataDir.resolve("snapshots");
        if (!Files.isDirectory(snapshots)) {
            return 0;
        }
        try (Stream<Path> files = Files.list(snapshots)) {
            return files.count();
        }
    }
}
