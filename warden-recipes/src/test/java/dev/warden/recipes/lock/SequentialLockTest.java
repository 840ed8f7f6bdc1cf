package dev.warden.recipes.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.client.WardenClient;
import dev.warden.recipes.testing.RecipeTarget;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SequentialLockTest {
    private RecipeTarget target;
    private WardenClient a;
    private WardenClient b;

    @BeforeAll
    void start() {
        target = RecipeTarget.start();
        a = target.client();
        b = target.client();
    }

    @AfterAll
    void stop() {
        target.close();
    }

    @Test
    void tryLockFailsWhileHeldAndSucceedsAfterRelease() {
        String dir = RecipeTarget.freshPath("lock");
        SequentialLock first = new SequentialLock(a, dir);
        SequentialLock second = new SequentialLock(b, dir);
        assertTrue(first.tryLock());
        assertFalse(second.tryLock());
        assertEquals(1, children(dir).size(), "a failed tryLock leaves no node");
        first.unlock();
        assertTrue(second.tryLock());
        assertFalse(first.isHeld());
        second.unlock();
        assertEquals(0, children(dir).size());
    }

    @Test
    void lockIsReentrantWithinOneHolder() {
        String dir = RecipeTarget.freshPath("reentrant");
        SequentialLock holder = new SequentialLock(a, dir);
        SequentialLock other = new SequentialLock(b, dir);
        assertTrue(holder.lock(Duration.ofSeconds(5)));
        assertTrue(holder.lock(Duration.ofSeconds(5)));
        assertEquals(2, holder.holdCount());
        assertEquals(1, children(dir).size(), "a reentrant hold creates no second node");
        holder.unlock();
        assertTrue(holder.isHeld());
        assertFalse(other.tryLock());
        holder.unlock();
        assertTrue(other.tryLock());
        other.unlock();
        assertThrows(IllegalStateException.class, holder::unlock);
    }

    @Test
    void lockTimesOutAndLeavesNoNodeBehind() {
        String dir = RecipeTarget.freshPath("timeout");
        SequentialLock holder = new SequentialLock(a, dir);
        SequentialLock waiter = new SequentialLock(b, dir);
        assertTrue(holder.lock(Duration.ofSeconds(5)));
        long startNs = System.nanoTime();
        assertFalse(waiter.lock(Duration.ofMillis(300)));
        assertTrue(System.nanoTime() - startNs >= TimeUnit.MILLISECONDS.toNanos(300));
        assertNull(waiter.nodePath());
        awaitChildren(dir, 1);
        holder.unlock();
    }

    @Test
    void waitersAreServedInArrivalOrder() throws Exception {
        String dir = RecipeTarget.freshPath("fifo");
        SequentialLock holder = new SequentialLock(a, dir);
        assertTrue(holder.lock(Duration.ofSeconds(5)));
        SequentialLock first = new SequentialLock(b, dir);
        CompletableFuture<Boolean> firstTurn = first.lockAsync(Duration.ofSeconds(10));
        awaitChildren(dir, 2);
        SequentialLock second = new SequentialLock(target.client(), dir);
        CompletableFuture<Boolean> secondTurn = second.lockAsync(Duration.ofSeconds(10));
        awaitChildren(dir, 3);
        holder.unlock();
        assertTrue(firstTurn.get(5, TimeUnit.SECONDS));
        Thread.sleep(200);
        assertFalse(secondTurn.isDone(), "the second waiter must wait for the first");
        first.unlock();
        assertTrue(secondTurn.get(5, TimeUnit.SECONDS));
        second.unlock();
    }

    @Test
    void cancellingAWaitWithdrawsItsNode() {
        String dir = RecipeTarget.freshPath("cancel");
        SequentialLock holder = new SequentialLock(a, dir);
        assertTrue(holder.lock(Duration.ofSeconds(5)));
        SequentialLock waiter = new SequentialLock(b, dir);
        CompletableFuture<Boolean> turn = waiter.lockAsync(null);
        awaitChildren(dir, 2);
        turn.cancel(false);
        awaitChildren(dir, 1);
        holder.unlock();
        assertTrue(waiter.tryLock(), "the object is usable again after a cancelled wait");
        waiter.unlock();
    }

    @Test
    void badArgumentsAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> new SequentialLock(a, "relative"));
        assertThrows(IllegalArgumentException.class, () -> new SequentialLock(a, "/"));
        SequentialLock lock = new SequentialLock(a, RecipeTarget.freshPath("args"));
        assertThrows(IllegalArgumentException.class, () -> lock.lock(Duration.ofMillis(-1)));
    }

    private List<String> children(String dir) {
        // on an ensemble, client a's member may not have applied b's last change yet
        a.sync(dir).join();
        return a.blocking(Duration.ofSeconds(5)).getChildren(dir);
    }

    private void awaitChildren(String dir, int expected) {
        long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (a.blocking(Duration.ofSeconds(5)).exists(dir).isEmpty() || children(dir).size() != expected) {
            if (System.nanoTime() > deadlineNs) {
                throw new AssertionError("expected " + expected + " children of " + dir);
            }
            sleep(20);
        }
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
