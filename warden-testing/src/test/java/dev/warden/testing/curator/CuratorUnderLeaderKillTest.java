package dev.warden.testing.curator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.testing.WardenTestingCluster;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Curator 5.9's framework and recipes on a three-member Warden ensemble whose leader is killed
 * half-way: an InterProcessMutex keeps an unguarded counter exact, a LeaderLatch group never has
 * two leaders and elects again when the leader closes, and a CuratorCache ends equal to the
 * server's tree.
 */
class CuratorUnderLeaderKillTest {
    private WardenTestingCluster cluster;
    private final List<CuratorFramework> clients = new ArrayList<>();
    private ExecutorService pool;

    @BeforeEach
    void start() {
        cluster = WardenTestingCluster.start(3);
        pool = Executors.newCachedThreadPool();
    }

    @AfterEach
    void stop() {
        pool.shutdownNow();
        clients.forEach(CuratorFramework::close);
        cluster.close();
    }

    private CuratorFramework client() throws InterruptedException {
        CuratorFramework client = CuratorFrameworkFactory.newClient(cluster.connectString(), 10_000, 5_000,
                new ExponentialBackoffRetry(100, 20, 1_000));
        client.start();
        assertTrue(client.blockUntilConnected(10, TimeUnit.SECONDS));
        clients.add(client);
        return client;
    }

    private void killLeaderAt(AtomicInteger progress, int target) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (progress.get() < target) {
            assertTrue(System.nanoTime() < deadline, "no progress: " + progress.get());
            Thread.sleep(10);
        }
        cluster.killLeader();
    }

    @Test
    void aMutexKeepsACounterExactAcrossALeaderKill() throws Exception {
        int workers = 6;
        int rounds = 30;
        AtomicInteger counter = new AtomicInteger();
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        List<CompletableFuture<Void>> running = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            InterProcessMutex mutex = new InterProcessMutex(client(), "/curator/lock");
            running.add(CompletableFuture.runAsync(() -> {
                for (int round = 0; round < rounds; round++) {
                    try {
                        assertTrue(mutex.acquire(60, TimeUnit.SECONDS));
                        if (inside.incrementAndGet() != 1) {
                            overlaps.incrementAndGet();
                        }
                        int seen = counter.get();
                        Thread.yield();
                        counter.set(seen + 1);
                        inside.decrementAndGet();
                        mutex.release();
                        done.incrementAndGet();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }
            }, pool));
        }
        killLeaderAt(done, workers * rounds / 3);
        CompletableFuture.allOf(running.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
        assertEquals(0, overlaps.get());
        assertEquals(workers * rounds, counter.get());
    }

    @Test
    void leaderLatchesKeepOneLeaderAndTheCacheConverges() throws Exception {
        Map<String, LeaderLatch> latches = new ConcurrentHashMap<>();
        for (int i = 0; i < 3; i++) {
            LeaderLatch latch = new LeaderLatch(client(), "/curator/leader", "p" + i);
            latch.start();
            latches.put("p" + i, latch);
        }
        CuratorFramework writer = client();
        CuratorCache cache = CuratorCache.build(client(), "/curator/tree");
        cache.start();
        AtomicInteger written = new AtomicInteger();
        CompletableFuture<Void> writes = CompletableFuture.runAsync(() -> {
            for (int i = 0; i < 100; i++) {
                try {
                    String path = "/curator/tree/n" + (i % 10);
                    byte[] data = ("v" + i).getBytes(StandardCharsets.UTF_8);
                    if (writer.checkExists().forPath(path) == null) {
                        writer.create().orSetData().creatingParentsIfNeeded().forPath(path, data);
                    } else {
                        writer.setData().forPath(path, data);
                    }
                    written.incrementAndGet();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
        }, pool);
        killLeaderAt(written, 30);
        writes.get(60, TimeUnit.SECONDS);

        awaitOneLeader(latches);
        String first = leaders(latches).get(0);
        latches.remove(first).close();
        String second = awaitOneLeader(latches);
        assertTrue(!second.equals(first));

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!cacheView(cache).equals(serverView(writer))) {
            assertTrue(System.nanoTime() < deadline, "cache " + cacheView(cache) + " server " + serverView(writer));
            Thread.sleep(50);
        }
        cache.close();
        latches.values().forEach(latch -> {
            try {
                latch.close();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
    }

    private static List<String> leaders(Map<String, LeaderLatch> latches) {
        return latches.entrySet().stream().filter(e -> e.getValue().hasLeadership()).map(Map.Entry::getKey).toList();
    }

    private static String awaitOneLeader(Map<String, LeaderLatch> latches) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            List<String> now = leaders(latches);
            assertTrue(now.size() <= 1, "two leaders at once: " + now);
            if (now.size() == 1) {
                return now.get(0);
            }
            assertTrue(System.nanoTime() < deadline, "no leader");
            Thread.sleep(20);
        }
    }

    private static Map<String, String> cacheView(CuratorCache cache) {
        Map<String, String> view = new TreeMap<>();
        cache.stream().filter(data -> data.getPath().startsWith("/curator/tree/"))
                .forEach(data -> view.put(data.getPath(), new String(data.getData(), StandardCharsets.UTF_8)));
        return view;
    }

    private static Map<String, String> serverView(CuratorFramework client) throws Exception {
        client.sync().forPath("/curator/tree");
        Map<String, String> view = new TreeMap<>();
        for (String child : client.getChildren().forPath("/curator/tree")) {
            String path = "/curator/tree/" + child;
            view.put(path, new String(client.getData().forPath(path), StandardCharsets.UTF_8));
        }
        return view;
    }
}
