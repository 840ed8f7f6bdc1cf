package dev.warden.bench.compare;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * A write load for the stall measurement: sessions, each setting its own znode in a loop (one
 * write at a time), and the time of every successful completion, so the longest stretch without
 * one in a window is known. Failures (a lost connection while the ensemble changes) are counted
 * and the session carries on.
 */
final class WriteStalls implements AutoCloseable {
    static final String ROOT = "/bench-reconfig";
    private static final int SESSION_TIMEOUT_MS = 30_000;
    private static final long CONNECT_TIMEOUT_MS = 30_000;

    /** Completion times (System.nanoTime) of successful writes, in order; guarded by itself. */
    private final List<Long> completions = new ArrayList<>();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final List<Thread> threads = new ArrayList<>();
    private final List<ZooKeeper> sessions = new ArrayList<>();

    private WriteStalls() {
    }

    /** Connects {@code sessionCount} sessions to {@code connectString} and starts their writes. */
    static WriteStalls start(String connectString, int sessionCount) throws Exception {
        WriteStalls load = new WriteStalls();
        try {
            ZooKeeper setup = load.connect(connectString);
            try {
                setup.create(ROOT, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            } catch (KeeperException.NodeExistsException earlierRound) {
                // the same ensemble measured again
            }
            for (int i = 0; i < sessionCount; i++) {
                String path = ROOT + "/s" + i;
                try {
                    setup.create(path, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                } catch (KeeperException.NodeExistsException earlierRound) {
                    // the same ensemble measured again
                }
                ZooKeeper session = load.connect(connectString);
                Thread writer = new Thread(() -> load.write(session, path), "stall-writer-" + i);
                load.threads.add(writer);
            }
        } catch (Exception | Error e) {
            load.close();
            throw e;
        }
        load.threads.forEach(Thread::start);
        return load;
    }

    private ZooKeeper connect(String connectString) throws Exception {
        ZooKeeper zk = session(connectString);
        sessions.add(zk);
        return zk;
    }

    /** A session with {@code connectString}, once connected; closed again if it does not connect in time. */
    static ZooKeeper session(String connectString) throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(connectString, SESSION_TIMEOUT_MS, event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        });
        if (!connected.await(CONNECT_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
            zk.close();
            throw new IllegalStateException("no session with " + connectString + " within " + CONNECT_TIMEOUT_MS
                    + " ms");
        }
        return zk;
    }

    private void write(ZooKeeper session, String path) {
        byte[] value = "x".repeat(64).getBytes(StandardCharsets.UTF_8);
        while (!stop.get()) {
            try {
                session.setData(path, value, -1);
                long now = System.nanoTime();
                synchronized (completions) {
                    completions.add(now);
                }
            } catch (KeeperException e) {
                failures.incrementAndGet();
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    long failures() {
        return failures.get();
    }

    /** Successful writes so far. */
    int completed() {
        synchronized (completions) {
            return completions.size();
        }
    }

    /** A stretch without a successful write: how long, and how long after the window opened it began. */
    record Stall(long lengthMs, long startsAfterMs) {
    }

    /**
     * The longest time in [{@code fromNs}, {@code toNs}] with no write completing: between two
     * completions, or from the window's start to the first, or from the last to its end.
     */
    Stall longestStall(long fromNs, long toNs) {
        long previous = fromNs;
        long longest = 0;
        long longestFrom = fromNs;
        synchronized (completions) {
            for (long at : completions) {
                if (at < fromNs) {
                    continue;
                }
                if (at > toNs) {
                    break;
                }
                if (at - previous > longest) {
                    longest = at - previous;
                    longestFrom = previous;
                }
                previous = at;
            }
        }
        if (toNs - previous > longest) {
            longest = toNs - previous;
            longestFrom = previous;
        }
        return new Stall(TimeUnit.NANOSECONDS.toMillis(longest), TimeUnit.NANOSECONDS.toMillis(longestFrom - fromNs));
    }

    @Override
    public void close() throws InterruptedException {
        stop.set(true);
        for (Thread thread : threads) {
            thread.join(SESSION_TIMEOUT_MS);
        }
        for (ZooKeeper session : sessions) {
            session.close();
        }
    }
}
