package dev.warden.state.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.ref.Reference;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Retained heap of one million watches in the two extreme shapes. Path strings are created
 * before the baseline (in the server they belong to requests and the data tree), so the figure
 * is the manager's own structure. Prints bytes per watch; asserts only a generous bound.
 */
class WatchMemoryTest {
    private static final int WATCHES = 1_000_000;
    private static final double SANITY_BOUND_BYTES_PER_WATCH = 400;

    @Test
    void thousandWatchersTimesThousandPaths() {
        List<String> paths = paths(1_000);
        List<WatchRecipient> watchers = watchers(1_000);
        long before = retainedHeapBytes();
        WatchManager manager = new WatchManager(WATCHES);
        for (WatchRecipient w : watchers) {
            for (String path : paths) {
                manager.addDataWatch(path, w);
            }
        }
        double perWatch = report("1,000 watchers x 1,000 paths", manager, before);
        assertEquals(WATCHES, manager.watchCount());
        assertTrue(perWatch < SANITY_BOUND_BYTES_PER_WATCH);
        Reference.reachabilityFence(paths);
    }

    @Test
    void millionPathsTimesOneWatcher() {
        List<String> paths = paths(WATCHES);
        WatchRecipient w = new RecordingWatcher("only");
        long before = retainedHeapBytes();
        WatchManager manager = new WatchManager(WATCHES);
        for (String path : paths) {
            manager.addDataWatch(path, w);
        }
        double perWatch = report("1,000,000 paths x 1 watcher", manager, before);
        assertEquals(WATCHES, manager.watchCount());
        assertTrue(perWatch < SANITY_BOUND_BYTES_PER_WATCH);
        manager.removeWatcher(w);
        assertEquals(0, manager.pathCount());
        Reference.reachabilityFence(paths);
    }

    /** The same two shapes in Apache ZooKeeper's own WatchManager, as a yardstick only. */
    @Test
    void apacheZooKeeperFiguresForComparison() {
        List<String> paths = paths(WATCHES);
        org.apache.zookeeper.Watcher single = event -> { };
        long before = retainedHeapBytes();
        org.apache.zookeeper.server.watch.WatchManager reference = new org.apache.zookeeper.server.watch.WatchManager();
        for (String path : paths) {
            reference.addWatch(path, single);
        }
        long retained = retainedHeapBytes() - before;
        assertEquals(WATCHES, reference.size());
        System.out.printf("WatchMemoryTest: Apache ZooKeeper 3.9 WatchManager, 1,000,000 paths x 1 watcher: %.1f bytes/watch%n",
                (double) retained / WATCHES);
        Reference.reachabilityFence(reference);
        reference = null;

        List<String> fewPaths = paths.subList(0, 1_000);
        List<org.apache.zookeeper.Watcher> many = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            many.add(new org.apache.zookeeper.Watcher() { // distinct objects, unlike a stateless lambda
                @Override
                public void process(org.apache.zookeeper.WatchedEvent event) {
                }
            });
        }
        before = retainedHeapBytes();
        org.apache.zookeeper.server.watch.WatchManager dense = new org.apache.zookeeper.server.watch.WatchManager();
        for (org.apache.zookeeper.Watcher w : many) {
            for (String path : fewPaths) {
                dense.addWatch(path, w);
            }
        }
        retained = retainedHeapBytes() - before;
        assertEquals(WATCHES, dense.size());
        System.out.printf("WatchMemoryTest: Apache ZooKeeper 3.9 WatchManager, 1,000 watchers x 1,000 paths: %.1f bytes/watch%n",
                (double) retained / WATCHES);
        Reference.reachabilityFence(dense);
        Reference.reachabilityFence(paths);
    }

    private static double report(String shape, WatchManager manager, long beforeBytes) {
        long afterBytes = retainedHeapBytes();
        double perWatch = (double) (afterBytes - beforeBytes) / manager.watchCount();
        System.out.printf("WatchMemoryTest: %s: %d watches, %.1f bytes/watch (%,d bytes retained)%n",
                shape, manager.watchCount(), perWatch, afterBytes - beforeBytes);
        Reference.reachabilityFence(manager);
        return perWatch;
    }

    private static List<String> paths(int count) {
        List<String> paths = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String path = "/app/node-" + i;
            path.hashCode(); // cache the hash now so it is not counted as the manager's memory
            paths.add(path);
        }
        return paths;
    }

    private static List<WatchRecipient> watchers(int count) {
        List<WatchRecipient> watchers = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            WatchRecipient w = new RecordingWatcher("w" + i);
            System.identityHashCode(w);
            watchers.add(w);
        }
        return watchers;
    }

    /** Heap in use after collections settle: several GCs until two readings agree closely. */
    static long retainedHeapBytes() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long previous = Long.MAX_VALUE;
        for (int round = 0; round < 10; round++) {
            System.gc();
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            long used = memory.getHeapMemoryUsage().getUsed();
            if (Math.abs(previous - used) < 64 * 1024) {
                return used;
            }
            previous = used;
        }
        return previous;
    }
}
