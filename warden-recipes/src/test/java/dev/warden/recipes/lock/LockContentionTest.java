package dev.warden.recipes.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.client.WardenClient;
import dev.warden.recipes.testing.OverlapDetector;
import dev.warden.recipes.testing.RecipeTarget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Many clients, one lock: never two holders, no lost increments of an unguarded counter, and
 * the herd effect of the simple lock against the single wake-up of the sequential one.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LockContentionTest {
    static final int CLIENTS = 20;
    static final int ROUNDS = 200;
    private static final int SIMPLE_ROUNDS = 50;
    private static final int WAITERS = 6;

    private RecipeTarget target;
    private final List<WardenClient> clients = new ArrayList<>();

    /** Deliberately unguarded: a read-yield-write increment loses updates unless the lock works. */
    private volatile int counter;

    @BeforeAll
    void start() {
        target = RecipeTarget.start();
        for (int i = 0; i < CLIENTS; i++) {
            clients.add(target.client());
        }
    }

    @AfterAll
    void stop() {
        target.close();
    }

    @Test
    void sequentialLockKeepsTwentyClientsApartAndTheCountExact() throws Exception {
        runContention(SequentialLock::new, "seq-contention", ROUNDS, 0);
    }

    @Test
    void simpleLockIsAlsoSafeUnderContention() throws Exception {
        // The simple lock is unfair: a releaser that asks again at once often wins the race, so
        // workers pause after each round and do fewer rounds to keep every one of them moving.
        runContention((client, dir) -> new SimpleLock(client, dir + "/lock"), "simple-contention", SIMPLE_ROUNDS, 2);
    }

    private void runContention(BiFunction<WardenClient, String, DistributedLock> factory, String purpose,
                               int rounds, long pauseMs) throws Exception {
        String dir = RecipeTarget.freshPath(purpose);
        OverlapDetector overlap = new OverlapDetector();
        counter = 0;
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
        long startNs = System.nanoTime();
        try {
            List<CompletableFuture<Void>> workers = new ArrayList<>();
            for (WardenClient client : clients) {
                DistributedLock lock = factory.apply(client, dir);
                workers.add(CompletableFuture.runAsync(() -> {
                    for (int round = 0; round < rounds; round++) {
                        assertTrue(lock.lock(Duration.ofSeconds(60)));
                        overlap.enterExclusive();
                        int seen = counter;
                        Thread.yield();
                        counter = seen + 1;
                        overlap.exitExclusive();
                        lock.unlock();
                        if (pauseMs > 0) {
                            SequentialLockTest.sleep(pauseMs);
                        }
                    }
                }, pool));
            }
            CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
        System.out.printf("%s: %d clients x %d rounds in %d ms%n", purpose, CLIENTS, rounds, elapsedMs);
        assertEquals(0, overlap.violations(), "two holders at once");
        assertEquals(CLIENTS * rounds, counter);
    }

    @Test
    void sequentialLockWakesExactlyOneWaiterPerRelease() throws Exception {
        String dir = RecipeTarget.freshPath("herd-free");
        long wakeups = wakeupsOverReleases((client) -> new SequentialLock(client, dir));
        assertEquals(WAITERS, wakeups, "one wake-up per release");
    }

    @Test
    void simpleLockWakesEveryWaiterOnEachRelease() throws Exception {
        String lockPath = RecipeTarget.freshPath("herd") + "/lock";
        long wakeups = wakeupsOverReleases((client) -> new SimpleLock(client, lockPath));
        // The first release alone wakes all WAITERS; later ones wake the rest again.
        assertTrue(wakeups >= WAITERS + WAITERS - 1, "herd expected, saw only " + wakeups + " wake-ups");
    }

    /**
     * One holder, WAITERS queued behind it; each holder in turn releases. Returns the watch
     * notifications all waiters received.
     */
    private long wakeupsOverReleases(java.util.function.Function<WardenClient, DistributedLock> factory) throws Exception {
        DistributedLock holder = factory.apply(clients.get(0));
        assertTrue(holder.lock(Duration.ofSeconds(5)));
        List<DistributedLock> waiters = new ArrayList<>();
        List<CompletableFuture<Boolean>> turns = new ArrayList<>();
        for (int i = 1; i <= WAITERS; i++) {
            DistributedLock waiter = factory.apply(clients.get(i));
            waiters.add(waiter);
            turns.add(waiter.lockAsync(Duration.ofSeconds(30)));
        }
        // Let every waiter reach its watch.
        Thread.sleep(500);
        DistributedLock current = holder;
        for (int released = 0; released < WAITERS; released++) {
            current.unlock();
            current = awaitNextHolder(waiters, turns);
        }
        current.unlock();
        // Late notifications (the simple lock's losers) still count.
        Thread.sleep(300);
        return waiters.stream().mapToLong(DistributedLock::wakeupCount).sum();
    }

    private static DistributedLock awaitNextHolder(List<DistributedLock> waiters, List<CompletableFuture<Boolean>> turns)
            throws InterruptedException {
        long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadlineNs) {
            for (int i = 0; i < waiters.size(); i++) {
                if (turns.get(i).isDone() && waiters.get(i).isHeld()) {
                    turns.set(i, new CompletableFuture<>());
                    return waiters.get(i);
                }
            }
            Thread.sleep(5);
        }
        throw new AssertionError("nobody took the lock after a release");
    }
}
