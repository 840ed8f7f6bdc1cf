package dev.warden.recipes.ensemble;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.client.WardenClient;
import dev.warden.protocol.CreateMode;
import dev.warden.recipes.atomic.AtomicResult;
import dev.warden.recipes.atomic.DistributedAtomicLong;
import dev.warden.recipes.cache.TreeCache;
import dev.warden.recipes.semaphore.CountingSemaphore;
import dev.warden.recipes.semaphore.Lease;
import dev.warden.recipes.testing.Eventually;
import dev.warden.recipes.testing.RecipeTarget;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The counter, the semaphore and the tree cache against a three-member in-JVM ensemble whose
 * leader is stopped half-way (as {@link RecipesWithLeaderKilledTest} does for the older recipes).
 */
class NewerRecipesWithLeaderKilledTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path dataDir;
    private RecipeTarget ensemble;
    private ExecutorService pool;

    @BeforeEach
    void start() {
        ensemble = RecipeTarget.startEnsemble(dataDir);
        pool = Executors.newCachedThreadPool();
    }

    @AfterEach
    void stop() {
        pool.shutdownNow();
        ensemble.close();
    }

    private long killLeaderAt(AtomicInteger progress, int target) throws InterruptedException {
        long deadlineNs = System.nanoTime() + WAIT.toNanos();
        while (progress.get() < target) {
            assertTrue(System.nanoTime() < deadlineNs, "no progress to " + target + ": " + progress.get());
            Thread.sleep(10);
        }
        return ensemble.killLeader();
    }

    @Test
    void countersCountExactlyAndTheSemaphoreStaysWithinItsLeasesAcrossALeaderKill() throws Exception {
        String counterPath = RecipeTarget.freshPath("ensemble-counter") + "/n";
        String semaphoreDir = RecipeTarget.freshPath("ensemble-semaphore");
        int clients = 6;
        int rounds = 30;
        int maxLeases = 2;
        AtomicInteger progress = new AtomicInteger();
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger violations = new AtomicInteger();
        AtomicInteger unknown = new AtomicInteger();
        List<CompletableFuture<Void>> workers = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            WardenClient client = ensemble.client();
            DistributedAtomicLong counter = new DistributedAtomicLong(client, counterPath);
            CountingSemaphore semaphore = new CountingSemaphore(client, semaphoreDir, maxLeases);
            workers.add(CompletableFuture.runAsync(() -> {
                for (int round = 0; round < rounds; round++) {
                    Lease lease = semaphore.acquire(WAIT).orElseThrow();
                    if (inside.incrementAndGet() > maxLeases) {
                        violations.incrementAndGet();
                    }
                    inside.decrementAndGet();
                    lease.close();
                    try {
                        AtomicResult<Long> result = counter.increment().join();
                        assertTrue(result.succeeded());
                    } catch (java.util.concurrent.CompletionException e) {
                        unknown.incrementAndGet();
                        throw e;
                    }
                    progress.incrementAndGet();
                }
            }, pool));
        }
        long killed = killLeaderAt(progress, clients * rounds / 3);
        CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).get(2 * WAIT.toSeconds(), TimeUnit.SECONDS);
        assertEquals(0, violations.get(), "more than " + maxLeases + " lease holders");
        assertEquals(0, unknown.get());
        WardenClient reader = ensemble.client();
        reader.sync(counterPath).get(10, TimeUnit.SECONDS);
        assertEquals(clients * rounds, new DistributedAtomicLong(reader, counterPath).get(WAIT),
                "increments lost or doubled; leader " + killed + " was stopped");
    }

    @Test
    void aTreeCacheConvergesAcrossALeaderKill() throws Exception {
        String root = RecipeTarget.freshPath("ensemble-cache");
        WardenClient writer = ensemble.client();
        writer.create(root, new byte[0], CreateMode.PERSISTENT).join();
        try (TreeCache cache = new TreeCache(ensemble.client(), root)) {
            cache.start(WAIT);
            AtomicInteger written = new AtomicInteger();
            CompletableFuture<Void> writes = CompletableFuture.runAsync(() -> {
                for (int i = 0; i < 120; i++) {
                    String path = root + "/n" + (i % 20);
                    retryingWrite(writer, path, ("v" + i).getBytes(StandardCharsets.UTF_8));
                    written.incrementAndGet();
                }
            }, pool);
            killLeaderAt(written, 40);
            writes.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            Eventually.holds(WAIT, () -> view(cache).equals(actual(writer, root)),
                    () -> "cache " + view(cache) + "\nserver " + actual(writer, root));
        }
    }

    /** A create or write that goes on after the connection losses a leader change causes. */
    private static void retryingWrite(WardenClient client, String path, byte[] data) {
        for (int attempt = 0; ; attempt++) {
            try {
                if (client.exists(path).join().isPresent()) {
                    client.setData(path, data).join();
                } else {
                    client.create(path, data, CreateMode.PERSISTENT).join();
                }
                return;
            } catch (java.util.concurrent.CompletionException e) {
                if (attempt > 50) {
                    throw e;
                }
            }
        }
    }

    private static Map<String, String> view(TreeCache cache) {
        Map<String, String> out = new TreeMap<>();
        cache.snapshot().forEach((path, node) -> out.put(path, new String(node.data(), StandardCharsets.UTF_8)));
        return out;
    }

    private static Map<String, String> actual(WardenClient client, String root) {
        client.sync(root).join();
        Map<String, String> out = new TreeMap<>();
        out.put(root, new String(client.getData(root).join().data(), StandardCharsets.UTF_8));
        for (String child : client.getChildren(root).join()) {
            out.put(root + "/" + child, new String(client.getData(root + "/" + child).join().data(), StandardCharsets.UTF_8));
        }
        return out;
    }
}
