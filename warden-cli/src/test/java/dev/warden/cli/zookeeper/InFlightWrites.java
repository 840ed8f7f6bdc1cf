package dev.warden.cli.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * Creates under /inflight issued while a ZooKeeper server is killed (SIGKILL). ZooKeeper answers
 * a session's requests in order and logs each before answering it, so what comes over is a
 * prefix of them holding every answered one; a write that was logged but not answered may come
 * over too, as on ZooKeeper itself.
 */
final class InFlightWrites {
    static final String PARENT = "/inflight";
    /**
     * Few enough that, with the workload's tail, they stay within SNAP_COUNT / 2 transactions of
     * the log roll before the tail: ZooKeeper takes no snapshot after it.
     */
    static final int WRITES = 20;
    private static final int DATA_BYTES = 16 * 1024;
    private static final long ISSUE_INTERVAL_MS = 5;
    private static final long WAIT_SECONDS = 30;

    private final AtomicInteger answered = new AtomicInteger();
    private final AtomicReference<String> failure = new AtomicReference<>();
    private volatile int answeredAtKill = -1;
    private Thread issuer;

    /**
     * Issues the writes from a thread of their own, one every ISSUE_INTERVAL_MS, so that when
     * the first answers arrive later writes are still on their way, in ZooKeeper's queues or
     * not yet sent.
     */
    static InFlightWrites issue(ZooKeeper zk) {
        InFlightWrites inFlight = new InFlightWrites();
        inFlight.issuer = new Thread(() -> {
            try {
                for (int i = 0; i < WRITES; i++) {
                    zk.create(PARENT + "/" + name(i), data(i), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT,
                            inFlight::answered, null);
                    Thread.sleep(ISSUE_INTERVAL_MS);
                }
            } catch (InterruptedException stop) {
                Thread.currentThread().interrupt();
            }
        }, "in-flight writes");
        inFlight.issuer.start();
        return inFlight;
    }

    private void answered(int rc, String path, Object ctx, String created) {
        if (rc == KeeperException.Code.OK.intValue()) {
            synchronized (this) {
                answered.incrementAndGet();
                notifyAll();
            }
        } else if (rc != KeeperException.Code.CONNECTIONLOSS.intValue()) {
            failure.compareAndSet(null, path + ": " + KeeperException.Code.get(rc));
        }
    }

    /** After the kill: the writes not issued yet are not issued. */
    void stopIssuing() throws InterruptedException {
        issuer.interrupt();
        issuer.join();
    }

    private static String name(int i) {
        return String.format("w-%02d", i);
    }

    private static byte[] data(int i) {
        byte[] data = new byte[DATA_BYTES];
        new Random(i).nextBytes(data);
        return data;
    }

    synchronized void awaitAcks(int count) throws InterruptedException {
        long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (answered.get() < count && System.nanoTime() < deadlineNs) {
            wait(100);
        }
        assertTrue(answered.get() >= count, "answered in-flight writes: " + answered.get());
        answeredAtKill = answered.get();
    }

    /**
     * The tree served from the import holds everything the client read before these writes
     * ({@code seen}), and a prefix of these writes holding every answered one.
     */
    void check(SortedMap<String, String> seen, SortedMap<String, String> served) throws Exception {
        assertNull(failure.get());
        assertEquals(outside(seen), outside(served));
        List<String> children = served.keySet().stream().filter(InFlightWrites::isChild).toList();
        int survived = children.size();
        System.out.println(WRITES + " writes in flight, " + answeredAtKill + " answered before the kill, "
                + survived + " came over");
        assertTrue(survived >= answeredAtKill, "every answered write survives: " + answeredAtKill + " answered, "
                + children);
        for (int i = 0; i < survived; i++) {
            String path = PARENT + "/" + name(i);
            assertEquals(path, children.get(i), "a prefix of the writes in issue order: " + children);
            String node = served.get(path);
            assertTrue(node.endsWith(" data=" + Base64.getEncoder().encodeToString(data(i))), node);
        }
        assertTrue(served.get(PARENT).contains(" children=" + survived + " "), served.get(PARENT));
    }

    static boolean isChild(String path) {
        return path.startsWith(PARENT + "/");
    }

    static SortedMap<String, String> outside(SortedMap<String, String> tree) {
        SortedMap<String, String> rest = new TreeMap<>(tree);
        rest.keySet().removeIf(path -> path.equals(PARENT) || path.startsWith(PARENT + "/"));
        return rest;
    }
}
