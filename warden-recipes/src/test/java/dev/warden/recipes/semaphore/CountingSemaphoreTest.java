package dev.warden.recipes.semaphore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.client.WardenClient;
import dev.warden.recipes.lock.LockState;
import dev.warden.recipes.testing.RecipeTarget.ProxiedClient;
import dev.warden.recipes.testing.RecipeTarget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CountingSemaphoreTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private RecipeTarget target;

    @BeforeAll
    void start() {
        target = RecipeTarget.start();
    }

    @AfterAll
    void stop() {
        target.close();
    }

    @Test
    void neverMoreHoldersThanLeasesUnderContention() throws Exception {
        String dir = RecipeTarget.freshPath("semaphore");
        int maxLeases = 3;
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger maxInside = new AtomicInteger();
        AtomicInteger violations = new AtomicInteger();
        AtomicInteger rounds = new AtomicInteger();
        List<CompletableFuture<Void>> workers = new ArrayList<>();
        for (int c = 0; c < 8; c++) {
            CountingSemaphore semaphore = new CountingSemaphore(target.client(), dir, maxLeases);
            workers.add(CompletableFuture.runAsync(() -> {
                for (int round = 0; round < 15; round++) {
                    Lease lease = semaphore.acquire(WAIT).orElseThrow();
                    int now = inside.incrementAndGet();
                    maxInside.accumulateAndGet(now, Math::max);
                    if (now > maxLeases) {
                        violations.incrementAndGet();
                    }
                    try {
                        Thread.sleep(20);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    inside.decrementAndGet();
                    lease.close();
                    rounds.incrementAndGet();
                }
            }));
        }
        CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
        assertEquals(0, violations.get(), "more than " + maxLeases + " holders at once");
        assertEquals(maxLeases, maxInside.get(), "the leases were shared");
        assertEquals(8 * 15, rounds.get());
        assertEquals(List.of(), target.client().getChildren(dir + "/leases").join(), "every lease node was deleted");
    }

    @Test
    void aTimedOutAcquireLeavesNoNodeAndSeveralLeasesComeTogether() throws Exception {
        String dir = RecipeTarget.freshPath("semaphore-timeout");
        CountingSemaphore first = new CountingSemaphore(target.client(), dir, 3);
        CountingSemaphore second = new CountingSemaphore(target.client(), dir, 3);
        List<Lease> two = first.acquire(2, WAIT);
        assertEquals(2, two.size());
        assertEquals(List.of(), second.acquire(2, Duration.ofMillis(300)), "only one lease is free");
        assertEquals(2, target.client().getChildren(dir + "/leases").join().size(), "the timed-out acquire left nothing");
        CompletableFuture<List<Lease>> waiting = second.acquireAsync(2, WAIT);
        Thread.sleep(200);
        assertFalse(waiting.isDone());
        two.get(0).close();
        assertEquals(2, waiting.get(10, TimeUnit.SECONDS).size());
        assertTrue(waiting.join().stream().allMatch(Lease::isValid));
    }

    @Test
    void anExpiredHoldersLeaseGoesToTheWaiterAndTheHolderHearsSuspendedFirst() throws Exception {
        String dir = RecipeTarget.freshPath("semaphore-expiry");
        ProxiedClient proxied = target.proxiedClient(RecipeTarget.SHORT_SESSION_TIMEOUT);
        List<LockState> told = new CopyOnWriteArrayList<>();
        CountingSemaphore holder = new CountingSemaphore(proxied.client(), dir, 1, (lease, state) -> told.add(state));
        Lease lease = holder.acquire(WAIT).orElseThrow();
        WardenClient other = target.client();
        CompletableFuture<List<Lease>> waiter = new CountingSemaphore(other, dir, 1).acquireAsync(1, WAIT);
        proxied.proxy().cut();
        assertEquals(1, waiter.get(20, TimeUnit.SECONDS).size());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!told.contains(LockState.LOST)) {
            assertTrue(System.nanoTime() < deadline, "holder heard " + told);
            Thread.sleep(10);
        }
        assertEquals(LockState.SUSPENDED, told.get(0));
        assertFalse(lease.isValid());
    }

    @Test
    void multiLockTakesAllOrNoneAndNeverDeadlocks() throws Exception {
        String base = RecipeTarget.freshPath("multilock");
        List<String> dirs = List.of(base + "/a", base + "/b", base + "/c");
        AtomicInteger[] inside = {new AtomicInteger(), new AtomicInteger(), new AtomicInteger()};
        AtomicInteger violations = new AtomicInteger();
        List<CompletableFuture<Void>> workers = new ArrayList<>();
        for (int c = 0; c < 6; c++) {
            int first = c % 3;
            int second = (c + 1 + c / 3) % 3;
            if (second == first) {
                second = (first + 1) % 3;
            }
            // Give each worker its pair in a different order: of() must sort it.
            List<String> pair = c % 2 == 0 ? List.of(dirs.get(first), dirs.get(second)) : List.of(dirs.get(second), dirs.get(first));
            int[] indexes = {first, second};
            MultiLock lock = MultiLock.of(target.client(), pair, null);
            workers.add(CompletableFuture.runAsync(() -> {
                for (int round = 0; round < 15; round++) {
                    assertTrue(lock.lock(WAIT));
                    for (int i : indexes) {
                        if (inside[i].incrementAndGet() != 1) {
                            violations.incrementAndGet();
                        }
                    }
                    for (int i : indexes) {
                        inside[i].decrementAndGet();
                    }
                    lock.unlock();
                }
            }));
        }
        CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
        assertEquals(0, violations.get());

        MultiLock holdsB = MultiLock.of(target.client(), List.of(dirs.get(1)), null);
        assertTrue(holdsB.lock(WAIT));
        MultiLock wantsAll = MultiLock.of(target.client(), dirs, null);
        assertFalse(wantsAll.lock(Duration.ofMillis(300)), "b is held");
        MultiLock onlyA = MultiLock.of(target.client(), List.of(dirs.get(0)), null);
        assertTrue(onlyA.lock(Duration.ofSeconds(2)), "a was given back when the multi-lock gave up");
        onlyA.unlock();
        holdsB.unlock();
    }
}
