package dev.warden.recipes.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.client.WardenClient;
import dev.warden.recipes.support.RecipePaths;
import dev.warden.recipes.testing.RecipeTarget.ProxiedClient;
import dev.warden.recipes.testing.RecipeTarget;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Locks when the holder's connection or session fails. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LockFailureTest {
    private static final Duration SHORT_SESSION = Duration.ofSeconds(3);
    private RecipeTarget target;

    @BeforeAll
    void start() {
        target = RecipeTarget.start();
    }

    @AfterAll
    void stop() {
        target.close();
    }

    /** A listener that keeps what it was told and when. */
    static final class RecordingListener implements LockListener {
        final List<LockState> states = new CopyOnWriteArrayList<>();
        final List<Long> atNs = new CopyOnWriteArrayList<>();

        @Override
        public void lockStateChanged(LockState state) {
            atNs.add(System.nanoTime());
            states.add(state);
        }

        long firstNs(LockState state) {
            int index = states.indexOf(state);
            return index < 0 ? Long.MAX_VALUE : atNs.get(index);
        }

        void await(LockState state) {
            long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!states.contains(state)) {
                if (System.nanoTime() > deadlineNs) {
                    throw new AssertionError("never told " + state + ", saw " + states);
                }
                SequentialLockTest.sleep(10);
            }
        }
    }

    @Test
    void expiredHolderIsToldBeforeTheLockPassesOn() throws Exception {
        String dir = RecipeTarget.freshPath("expiry");
        ProxiedClient cut = target.proxiedClient(SHORT_SESSION);
        RecordingListener told = new RecordingListener();
        SequentialLock holder = new SequentialLock(cut.client(), dir, told);
        SequentialLock waiter = new SequentialLock(target.client(), dir);
        assertTrue(holder.lock(Duration.ofSeconds(5)));
        AtomicLong acquiredAtNs = new AtomicLong();
        CompletableFuture<Boolean> turn = waiter.lockAsync(Duration.ofSeconds(30))
                .whenComplete((held, error) -> acquiredAtNs.set(System.nanoTime()));

        cut.proxy().pause();
        assertTrue(turn.get(20, TimeUnit.SECONDS));
        assertTrue(told.firstNs(LockState.SUSPENDED) < acquiredAtNs.get(),
                "the holder must hear SUSPENDED before the next holder gets the lock: " + told.states);
        told.await(LockState.LOST);
        assertFalse(holder.isHeld());
        assertEquals(1, holder.holdCount(), "the count stays until the holder unlocks");
        holder.unlock();
        waiter.unlock();
    }

    @Test
    void shortDisconnectSuspendsThenRestoresTheHold() {
        String dir = RecipeTarget.freshPath("blip");
        ProxiedClient flaky = target.proxiedClient(Duration.ofSeconds(5));
        RecordingListener told = new RecordingListener();
        SequentialLock holder = new SequentialLock(flaky.client(), dir, told);
        assertTrue(holder.lock(Duration.ofSeconds(5)));
        flaky.proxy().drop();
        told.await(LockState.RECONNECTED);
        assertEquals(List.of(LockState.SUSPENDED, LockState.RECONNECTED), told.states);
        assertTrue(holder.isHeld());
        assertFalse(new SequentialLock(target.client(), dir).tryLock());
        holder.unlock();
    }

    @Test
    void createWhoseReplyIsLostLeavesNoOrphan() throws Exception {
        String dir = RecipeTarget.freshPath("lost-reply");
        WardenClient observer = target.client();
        // The directory exists, so the lock's first request is the create whose reply we hold back.
        RecipePaths.ensureDirectory(observer, dir).get(5, TimeUnit.SECONDS);
        ProxiedClient flaky = target.proxiedClient(Duration.ofSeconds(5));
        SequentialLock lock = new SequentialLock(flaky.client(), dir);

        flaky.proxy().pauseReplies();
        CompletableFuture<Boolean> turn = lock.lockAsync(Duration.ofSeconds(20));
        long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (observer.blocking(Duration.ofSeconds(5)).getChildren(dir).isEmpty() && System.nanoTime() < deadlineNs) {
            SequentialLockTest.sleep(10);
        }
        flaky.proxy().drop();
        flaky.proxy().resume();

        assertTrue(turn.get(15, TimeUnit.SECONDS));
        assertEquals(1, observer.blocking(Duration.ofSeconds(5)).getChildren(dir).size(), "one node, no orphan");
        lock.unlock();
        assertEquals(0, observer.blocking(Duration.ofSeconds(5)).getChildren(dir).size());
    }

    @Test
    void deletedLockNodeIsReportedAsLost() {
        String dir = RecipeTarget.freshPath("deleted");
        RecordingListener told = new RecordingListener();
        SequentialLock holder = new SequentialLock(target.client(), dir, told);
        assertTrue(holder.lock(Duration.ofSeconds(5)));
        target.client().blocking(Duration.ofSeconds(5)).delete(holder.nodePath());
        told.await(LockState.LOST);
        assertFalse(holder.isHeld());
        holder.unlock();
    }
}
