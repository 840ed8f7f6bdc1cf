package dev.warden.state.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.protocol.Acl;
import dev.warden.protocol.EventType;
import dev.warden.protocol.WatcherType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Network-like threads register and remove while one applier-like thread triggers. */
class WatchManagerConcurrencyTest {
    private static final int REGISTRAR_THREADS = 4;
    private static final int WATCHERS_PER_THREAD = 25;
    private static final int OPERATIONS_PER_THREAD = 30_000;
    /** Triggers continue until every registrar is done, so the two always overlap. */
    private static final int MIN_TRIGGERS = 10_000;
    private static final String[] PATHS = {"/", "/a", "/a/b", "/a/b/c", "/a/d", "/e", "/e/f"};

    /** Records zxids so a second call for the same trigger is detected. */
    static final class ZxidWatcher implements WatchRecipient {
        final Set<Long> zxids = new HashSet<>();
        int duplicates;

        @Override
        public synchronized void process(int eventType, String path, long zxid, List<Acl> acl) {
            if (!zxids.add(zxid)) {
                duplicates++;
            }
        }

        synchronized int calls() {
            return zxids.size() + duplicates;
        }
    }

    @Test
    void concurrentRegistrationsRemovalsAndTriggersKeepTheIndexesConsistent() throws Exception {
        WatchManager manager = new WatchManager(12);
        List<ZxidWatcher> all = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(REGISTRAR_THREADS + 1);
        CyclicBarrier start = new CyclicBarrier(REGISTRAR_THREADS + 1);
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < REGISTRAR_THREADS; t++) {
            List<ZxidWatcher> mine = new ArrayList<>();
            for (int i = 0; i < WATCHERS_PER_THREAD; i++) {
                mine.add(new ZxidWatcher());
            }
            all.addAll(mine);
            long seed = t;
            futures.add(pool.submit(() -> {
                start.await();
                registerAndRemove(manager, mine, new Random(seed));
                return null;
            }));
        }
        AtomicLong calls = new AtomicLong();
        List<Future<?>> registrars = List.copyOf(futures);
        futures.add(pool.submit(() -> {
            start.await();
            Random random = new Random(99);
            for (int zxid = 1; zxid <= MIN_TRIGGERS || registrars.stream().anyMatch(f -> !f.isDone()); zxid++) {
                int eventType = EventType.NODE_CREATED + random.nextInt(4);
                calls.addAndGet(manager.trigger(PATHS[random.nextInt(PATHS.length)], eventType, zxid, null));
            }
            return null;
        }));
        for (Future<?> f : futures) {
            f.get(120, TimeUnit.SECONDS);
        }
        pool.shutdown();

        manager.checkInvariants();
        assertEquals(calls.get(), all.stream().mapToLong(ZxidWatcher::calls).sum(),
                "trigger's return values add up to the calls received");
        assertTrue(calls.get() > 0, "the triggers did race with live watches");
        for (ZxidWatcher w : all) {
            assertEquals(0, w.duplicates, "one call per watcher per trigger");
            assertTrue(manager.watchCount(w) <= 12);
        }
        for (ZxidWatcher w : all) {
            manager.removeWatcher(w);
        }
        manager.checkInvariants();
        assertEquals(0, manager.watchCount());
        assertEquals(0, manager.dataWatchCount());
        assertEquals(0, manager.pathCount());
        assertEquals(0, manager.watcherCount());
    }

    private static void registerAndRemove(WatchManager manager, List<ZxidWatcher> mine, Random random) {
        for (int i = 0; i < OPERATIONS_PER_THREAD; i++) {
            ZxidWatcher w = mine.get(random.nextInt(mine.size()));
            String path = PATHS[random.nextInt(PATHS.length)];
            switch (random.nextInt(8)) {
                case 0, 1 -> manager.addDataWatch(path, w);
                case 2 -> manager.addChildWatch(path, w);
                case 3 -> manager.addPersistentWatch(path, w);
                case 4 -> manager.addPersistentRecursiveWatch(path, w);
                case 5 -> manager.removeWatches(path, WatcherType.CHILDREN + random.nextInt(5), w, true);
                case 6 -> manager.hasWatch(path, WatcherType.ANY, w);
                default -> {
                    if (random.nextInt(20) == 0) {
                        manager.removeWatcher(w);
                    } else {
                        manager.pathsByWatcher();
                    }
                }
            }
        }
    }
}
