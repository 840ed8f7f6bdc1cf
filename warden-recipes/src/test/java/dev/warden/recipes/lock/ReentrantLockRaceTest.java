package dev.warden.recipes.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.client.WardenClient;
import dev.warden.recipes.testing.Eventually;
import dev.warden.recipes.testing.RecipeTarget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Stress tests: one lock object used from two threads at the same moment. When the checks and
 * the start of an attempt were made under two separate locks, two lock requests could both start
 * an attempt (one node then waited for ever behind the other), and a close() between the two
 * found nothing started to release, after which the attempt created a node nobody removed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReentrantLockRaceTest {
    private static final int ROUNDS = 200;
    private RecipeTarget target;
    private ExecutorService threads;

    @BeforeAll
    void start() {
        target = RecipeTarget.start();
        threads = Executors.newFixedThreadPool(2);
    }

    @AfterAll
    void stop() {
        threads.shutdownNow();
        target.close();
    }

    @Test
    void twoSimultaneousLockRequestsOnOneObjectStartOneAttempt() throws Exception {
        WardenClient client = target.client();
        String dir = RecipeTarget.freshPath("two-requests");
        List<String> problems = new ArrayList<>();
        for (int round = 0; round < ROUNDS && problems.isEmpty(); round++) {
            SequentialLock lock = new SequentialLock(client, dir);
            CyclicBarrier together = new CyclicBarrier(2);
            Future<CompletableFuture<Boolean>> first = threads.submit(() -> request(lock, together));
            Future<CompletableFuture<Boolean>> second = threads.submit(() -> request(lock, together));
            List<CompletableFuture<Boolean>> accepted = new ArrayList<>();
            for (Future<CompletableFuture<Boolean>> one : List.of(first, second)) {
                CompletableFuture<Boolean> outcome = one.get(10, TimeUnit.SECONDS);
                if (outcome != null) {
                    accepted.add(outcome);
                }
            }
            // A request may come after the other was granted: it is then a reentrant hold, which
            // is right. Two attempts would show as a second node queued behind the first, whose
            // request never completes.
            for (CompletableFuture<Boolean> outcome : accepted) {
                assertTrue(outcome.get(10, TimeUnit.SECONDS), "round " + round);
            }
            List<String> queued = client.getChildren(dir).get(10, TimeUnit.SECONDS);
            if (queued.size() != 1 || lock.holdCount() != accepted.size()) {
                problems.add("round " + round + ": " + accepted.size() + " requests accepted, hold count "
                        + lock.holdCount() + ", nodes " + queued);
                break;
            }
            for (int held = accepted.size(); held > 0; held--) {
                lock.unlock();
            }
            assertEquals(List.of(), client.getChildren(dir).get(10, TimeUnit.SECONDS), "round " + round);
        }
        assertEquals(List.of(), problems);
    }

    @Test
    void closeRacingALockRequestLeavesNoNode() throws Exception {
        WardenClient client = target.client();
        WardenClient observer = target.client();
        String dir = RecipeTarget.freshPath("close-request");
        for (int round = 0; round < ROUNDS; round++) {
            SequentialLock lock = new SequentialLock(client, dir);
            CyclicBarrier together = new CyclicBarrier(2);
            Future<CompletableFuture<Boolean>> requested = threads.submit(() -> request(lock, together));
            Future<?> closed = threads.submit(() -> {
                together.await();
                lock.close();
                return null;
            });
            closed.get(10, TimeUnit.SECONDS);
            CompletableFuture<Boolean> outcome = requested.get(10, TimeUnit.SECONDS);
            if (outcome != null) {
                // Cancelled by the close, or granted just before it and then released by it.
                outcome.handle((held, error) -> null).get(10, TimeUnit.SECONDS);
            }
            int finished = round;
            Eventually.holds(Duration.ofSeconds(5), () -> children(observer, dir).isEmpty(),
                    () -> "round " + finished + ": node left after close: " + children(observer, dir));
            assertEquals(0, lock.holdCount(), "round " + round);
        }
    }

    /** The lock directory's children; none if a close came before the directory was made. */
    private static List<String> children(WardenClient observer, String dir) {
        return observer.getChildren(dir).exceptionally(error -> List.of()).join();
    }

    /** The request's future, or null if the lock object refused it (already waiting, or closed). */
    private static CompletableFuture<Boolean> request(SequentialLock lock, CyclicBarrier together) throws Exception {
        together.await();
        try {
            return lock.lockAsync(Duration.ofSeconds(10));
        } catch (IllegalStateException refused) {
            return null;
        }
    }
}
