package dev.warden.server.quorum;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.server.ApacheClients;
import dev.warden.storage.FaultInjectingChannels;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where a member's log fsyncs run, seen from a real client: a member alone in its ensemble
 * fsyncs an idle write on its driver thread (inlineIdleWrites), goes back to its log thread
 * after a slow fsync and with the setting off, and acknowledges nothing its failed disk did not
 * hold; a leader with followers fsyncs only on its log thread.
 */
class MemberAloneWritesTest {
    private static final long SERVING_TIMEOUT_MS = 15_000;

    @TempDir
    Path baseDir;

    private TestEnsemble ensemble;
    private final List<ZooKeeper> clients = new ArrayList<>();
    /** The threads the log's fsyncs ran on, in order. */
    private final List<String> forcedOn = Collections.synchronizedList(new ArrayList<>());

    @AfterEach
    void tearDown() throws Exception {
        for (ZooKeeper client : clients) {
            client.close();
        }
        if (ensemble != null) {
            ensemble.close();
        }
    }

    private FaultInjectingChannels recordingDisk() {
        FaultInjectingChannels disk = new FaultInjectingChannels();
        disk.hookForces(file -> {
            if (file.getFileName().toString().startsWith("log.")) {
                forcedOn.add(Thread.currentThread().getName());
            }
        });
        return disk;
    }

    private ZooKeeper connect(String connectString) throws Exception {
        ZooKeeper zk = ApacheClients.connect(connectString);
        clients.add(zk);
        return zk;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Creates {@code count} znodes one after the other and returns the fsyncs' threads meanwhile. */
    private List<String> writeOneByOne(ZooKeeper zk, String prefix, int count) throws Exception {
        forcedOn.clear();
        for (int i = 0; i < count; i++) {
            zk.create(prefix + i, bytes("v"), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        }
        synchronized (forcedOn) {
            return List.copyOf(forcedOn);
        }
    }

    private ZooKeeper startAlone(FaultInjectingChannels disk) throws Exception {
        ensemble = new TestEnsemble(baseDir, List.of(1L), List.of(), ZabConsensus::new);
        ensemble.start(1, disk);
        ensemble.awaitServing(1, SERVING_TIMEOUT_MS);
        return connect(ensemble.connectString(1));
    }

    @Test
    void aMemberAloneFsyncsIdleWritesOnItsDriverAndGoesBackToItsLogThreadAfterASlowOne() throws Exception {
        FaultInjectingChannels disk = recordingDisk();
        ZooKeeper zk = startAlone(disk);
        List<String> idle = writeOneByOne(zk, "/idle-", 50);
        // nothing else writes, so they fsync on the driver, except after an fsync this machine
        // took 2 ms or more over (a loaded CI host has those now and then)
        assertTrue(idle.stream().filter("warden-1-driver"::equals).count() >= 10,
                "idle writes fsynced on the driver: " + idle);

        disk.delayForcesBy(30); // every fsync now takes longer than the 2 ms an idle write may hold the driver
        List<String> slow = writeOneByOne(zk, "/slow-", 10);
        assertTrue(slow.stream().filter("warden-1-driver"::equals).count() <= 1,
                "after one slow fsync the driver hands writes to its log thread: " + slow);
        assertTrue(slow.contains("warden-1-driver-log"), slow.toString());

        disk.delayForcesBy(0);
        writeOneByOne(zk, "/fast-again-", 2); // the log thread's fast fsync makes the disk fast again
        List<String> fastAgain = writeOneByOne(zk, "/fast-", 10);
        assertTrue(fastAgain.contains("warden-1-driver"), "fast again: " + fastAgain);
    }

    @Test
    void withInlineIdleWritesOffEveryFsyncRunsOnTheLogThread() throws Exception {
        ensemble = new TestEnsemble(baseDir, List.of(1L), List.of(), ZabConsensus::new);
        ensemble.configure(1, b -> b.inlineIdleWrites(false));
        ensemble.start(1, recordingDisk());
        ensemble.awaitServing(1, SERVING_TIMEOUT_MS);
        List<String> threads = writeOneByOne(connect(ensemble.connectString(1)), "/n-", 10);
        assertFalse(threads.isEmpty());
        assertTrue(threads.stream().allMatch("warden-1-driver-log"::equals), threads.toString());
    }

    @Test
    void aLeaderWithFollowersFsyncsOnlyOnItsLogThread() throws Exception {
        ensemble = new TestEnsemble(baseDir, List.of(1L, 2L, 3L), List.of(), ZabConsensus::new);
        List<FaultInjectingChannels> disks = new ArrayList<>();
        for (long id : List.of(1L, 2L, 3L)) {
            FaultInjectingChannels disk = new FaultInjectingChannels();
            long member = id;
            disk.hookForces(file -> {
                if (file.getFileName().toString().startsWith("log.")) {
                    forcedOn.add(member + " " + Thread.currentThread().getName());
                }
            });
            disks.add(disk);
            ensemble.start(id, disk);
        }
        ensemble.awaitAllServing(SERVING_TIMEOUT_MS);
        long leader = ensemble.servers().entrySet().stream()
                .filter(e -> e.getValue().member().role() == dev.warden.consensus.Role.LEADING)
                .findFirst().orElseThrow().getKey();
        List<String> threads = writeOneByOne(connect(ensemble.connectString(leader)), "/n-", 10);
        assertTrue(threads.stream().anyMatch(t -> t.startsWith(leader + " ")), threads.toString());
        assertTrue(threads.stream().allMatch(t -> t.endsWith("-driver-log")), threads.toString());
    }

    @Test
    void aMemberAloneWhoseDiskFailsAcknowledgesNothingMoreAndKeepsWhatItAcknowledged() throws Exception {
        FaultInjectingChannels disk = recordingDisk();
        ZooKeeper zk = startAlone(disk);
        writeOneByOne(zk, "/kept-", 10);
        disk.hookForces(file -> {
            throw new IOException("the disk failed");
        });
        assertThrows(KeeperException.class,
                () -> zk.create("/lost", bytes("v"), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT));
        long deadline = System.currentTimeMillis() + SERVING_TIMEOUT_MS;
        while (ensemble.server(1).member().isServing() && System.currentTimeMillis() < deadline) {
            Thread.sleep(20);
        }
        assertFalse(ensemble.server(1).member().isServing(), "a member whose log cannot be written stops serving");

        ensemble.stop(1);
        ensemble.start(1, new FaultInjectingChannels());
        ensemble.awaitServing(1, SERVING_TIMEOUT_MS);
        ZooKeeper again = connect(ensemble.connectString(1));
        for (int i = 0; i < 10; i++) {
            assertArrayEquals(bytes("v"), again.getData("/kept-" + i, false, null));
        }
    }
}
