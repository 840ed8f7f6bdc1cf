package dev.warden.cli.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.warden.cli.data.TreeImage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;

/**
 * What ZooKeeperReleaseImportTest writes through a client into a ZooKeeper release: a bulk of
 * writes that rolls the log and snapshots, then a tail of every kind of change that stays in
 * the log after the last snapshot. Works with every release from 3.5 on.
 */
final class ReleaseWorkload {
    /**
     * The servers' snapCount: ZooKeeper rolls its log and snapshots once more than SNAP_COUNT / 2
     * (plus a random part, up to SNAP_COUNT in all) transactions went to the log since the last roll.
     */
    static final int SNAP_COUNT = 100;
    private static final int BULK_WRITES = 250;
    private static final long WAIT_SECONDS = 30;

    private ReleaseWorkload() {
    }

    /** Data of many sizes in BULK_WRITES writes: the log rolls and ZooKeeper snapshots at least twice. */
    static void writeBulk(ZooKeeper zk) throws Exception {
        zk.create("/bulk", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        Random random = new Random(42);
        AsyncWrites writes = new AsyncWrites();
        int issued = 1;
        for (int i = 0; issued < BULK_WRITES; i++) {
            String path = String.format("/bulk/item-%04d", i);
            byte[] data = new byte[random.nextInt(2_000)];
            random.nextBytes(data);
            zk.create(path, data, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT, writes.created(path), null);
            issued++;
            if (i % 5 == 4) {
                zk.setData(path, ("changed " + i).getBytes(StandardCharsets.UTF_8), 0, writes.changed(path), null);
                issued++;
            }
            if (i % 7 == 6) {
                String deleted = String.format("/bulk/item-%04d", i - 3);
                zk.delete(deleted, -1, writes.deleted(deleted), null);
                issued++;
            }
        }
        writes.await(issued - 1);
    }

    /**
     * Writes one transaction at a time until ZooKeeper opens a new log file: it has just rolled
     * and started a snapshot, and counts transactions from zero again, so fewer than SNAP_COUNT / 2
     * more writes all stay in the log after that snapshot.
     */
    static void awaitLogRoll(ZooKeeper zk, Path version2) throws Exception {
        Set<Path> logsBefore = logFiles(version2);
        for (int tick = 0; tick <= SNAP_COUNT; tick++) {
            zk.setData("/bulk", ("tick " + tick).getBytes(StandardCharsets.UTF_8), -1);
            if (!logsBefore.containsAll(logFiles(version2))) {
                return;
            }
        }
        throw new AssertionError("ZooKeeper wrote " + SNAP_COUNT + " transactions without a new log file in "
                + version2 + ": " + logFiles(version2));
    }

    static Set<Path> logFiles(Path version2) throws Exception {
        try (Stream<Path> files = Files.list(version2)) {
            return files.filter(f -> f.getFileName().toString().startsWith("log.")).collect(Collectors.toSet());
        }
    }

    /**
     * Every kind of node and change after the last snapshot: ACLs of several schemes, data sizes
     * up to half a MiB, sequential, container and TTL nodes, multis (one failing), ephemerals of a
     * session that stays open and of one that closes; and the empty parent of the in-flight writes.
     *
     * @return the number of transactions written
     */
    static int writeTail(ZooKeeper zk, ZooKeeper owner, String connectString) throws Exception {
        int txns = 0;
        zk.create("/app", "v1".getBytes(StandardCharsets.UTF_8), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        String hash = DigestAuthenticationProvider.generateDigest("bob:secret");
        zk.create("/app/private", "secret".getBytes(StandardCharsets.UTF_8), acl(
                new ACL(ZooDefs.Perms.ALL, new Id("digest", hash)),
                new ACL(ZooDefs.Perms.READ, new Id("world", "anyone"))), CreateMode.PERSISTENT);
        zk.create("/app/local", new byte[] {1}, acl(new ACL(ZooDefs.Perms.ALL, new Id("ip", "127.0.0.1")),
                new ACL(ZooDefs.Perms.READ | ZooDefs.Perms.ADMIN, new Id("world", "anyone"))), CreateMode.PERSISTENT);
        zk.create("/app/readonly", new byte[0], ZooDefs.Ids.READ_ACL_UNSAFE, CreateMode.PERSISTENT);
        txns += 4;
        Random random = new Random(7);
        for (int size : new int[] {0, 1, 1024, 100 * 1024, 512 * 1024}) {
            byte[] data = new byte[size];
            random.nextBytes(data);
            zk.create("/app/size-" + size, data, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            txns++;
        }
        zk.create("/app/null", null, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        List<String> sequential = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            sequential.add(zk.create("/app/seq-", new byte[] {(byte) i}, ZooDefs.Ids.OPEN_ACL_UNSAFE,
                    CreateMode.PERSISTENT_SEQUENTIAL));
        }
        zk.delete(sequential.get(1), 0);
        zk.setData("/app", "v2".getBytes(StandardCharsets.UTF_8), 0);
        zk.setACL("/app/size-1", acl(new ACL(ZooDefs.Perms.READ | ZooDefs.Perms.WRITE, new Id("world", "anyone"))), 0);
        txns += 7;
        zk.create("/jobs", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.CONTAINER);
        zk.create("/jobs/one", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        zk.create("/cache", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT_WITH_TTL, null, 600_000);
        zk.multi(List.of(Op.create("/batch", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT),
                Op.create("/batch/a", new byte[] {1}, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT),
                Op.check("/app", 1)));
        txns += 4;
        try {
            zk.multi(List.of(Op.create("/failed", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT),
                    Op.check("/app", 99)));
            throw new AssertionError("a multi with a failing check succeeded");
        } catch (KeeperException.BadVersionException expected) {
            txns++; // logged as a multi of error results: changes nothing
        }
        owner.create("/app/lock", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL);
        owner.create("/app/worker-", "me".getBytes(StandardCharsets.UTF_8), ZooDefs.Ids.OPEN_ACL_UNSAFE,
                CreateMode.EPHEMERAL_SEQUENTIAL);
        txns += 2;
        try (ZooKeeper gone = TreeImage.connect(connectString)) {
            gone.create("/app/gone-", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL_SEQUENTIAL);
        }
        txns += 3; // createSession, create, closeSession
        zk.create(InFlightWrites.PARENT, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        txns++;
        return txns;
    }

    private static List<ACL> acl(ACL... entries) {
        return new ArrayList<>(List.of(entries));
    }

    /** Asynchronous writes whose results must all be OK; a failure names the path and the code. */
    private static final class AsyncWrites {
        private final AtomicInteger done = new AtomicInteger();
        private final AtomicReference<String> failure = new AtomicReference<>();

        AsyncCallback.StringCallback created(String path) {
            return (rc, p, ctx, name) -> finish(rc, "create " + path);
        }

        AsyncCallback.StatCallback changed(String path) {
            return (rc, p, ctx, stat) -> finish(rc, "setData " + path);
        }

        AsyncCallback.VoidCallback deleted(String path) {
            return (rc, p, ctx) -> finish(rc, "delete " + path);
        }

        private void finish(int rc, String what) {
            if (rc != KeeperException.Code.OK.intValue()) {
                failure.compareAndSet(null, what + ": " + KeeperException.Code.get(rc));
            }
            synchronized (this) {
                done.incrementAndGet();
                notifyAll();
            }
        }

        synchronized void await(int count) throws InterruptedException {
            long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
            while (done.get() < count && System.nanoTime() < deadlineNs) {
                wait(100);
            }
            assertNull(failure.get());
            assertEquals(count, done.get(), "answered writes");
        }
    }
}
