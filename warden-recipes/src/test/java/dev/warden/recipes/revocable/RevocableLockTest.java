package dev.warden.recipes.revocable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.recipes.lock.DistributedLock;
import dev.warden.recipes.lock.LockState;
import dev.warden.recipes.testing.RecipeTarget;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RevocableLockTest {
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
    void consentingHolderReleasesWhenAsked() throws Exception {
        String dir = RecipeTarget.freshPath("revoke");
        CompletableFuture<DistributedLock> asked = new CompletableFuture<>();
        RevocableReadWriteLock holder = new RevocableReadWriteLock(target.client(), dir, lock -> {
            asked.complete(lock);
            lock.unlockAsync();
        });
        assertTrue(holder.writeLock().tryLock());
        Revoker revoker = new Revoker(target.client());
        List<String> nodes = revoker.lockNodes(dir).get(5, TimeUnit.SECONDS);
        assertEquals(List.of(holder.writeLock().nodePath()), nodes);

        assertEquals(RevocationOutcome.RELEASED, revoker.revoke(nodes.get(0), Duration.ofSeconds(10), Duration.ofSeconds(15)));
        assertEquals(holder.writeLock(), asked.get(5, TimeUnit.SECONDS));
        assertFalse(holder.writeLock().isHeld());
        assertEquals(0, holder.writeLock().holdCount());
    }

    @Test
    void stubbornHolderLosesTheLockByForce() throws Exception {
        String dir = RecipeTarget.freshPath("revoke-force");
        List<LockState> states = new CopyOnWriteArrayList<>();
        CompletableFuture<Void> asked = new CompletableFuture<>();
        RevocableReadWriteLock holder = new RevocableReadWriteLock(target.client(), dir,
                lock -> asked.complete(null), states::add);
        RevocableReadWriteLock waiter = new RevocableReadWriteLock(target.client(), dir, lock -> { });
        assertTrue(holder.readLock().tryLock());
        CompletableFuture<Boolean> writeTurn = waiter.writeLock().lockAsync(Duration.ofSeconds(10));

        long startNs = System.nanoTime();
        RevocationOutcome outcome = new Revoker(target.client())
                .revoke(holder.readLock().nodePath(), Duration.ofMillis(300), Duration.ofSeconds(10));
        assertEquals(RevocationOutcome.FORCED, outcome);
        assertTrue(System.nanoTime() - startNs >= TimeUnit.MILLISECONDS.toNanos(300), "the grace period was honoured");
        asked.get(5, TimeUnit.SECONDS);
        assertTrue(writeTurn.get(5, TimeUnit.SECONDS));
        long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!states.contains(LockState.LOST) && System.nanoTime() < deadlineNs) {
            Thread.sleep(10);
        }
        assertEquals(List.of(LockState.LOST), states);
        assertFalse(holder.readLock().isHeld());
        holder.readLock().unlock();
        waiter.writeLock().unlock();
    }

    @Test
    void requestToAWaiterIsDeliveredWhenItGetsTheLock() throws Exception {
        String dir = RecipeTarget.freshPath("revoke-waiter");
        RevocableReadWriteLock first = new RevocableReadWriteLock(target.client(), dir, lock -> { });
        CompletableFuture<DistributedLock> asked = new CompletableFuture<>();
        RevocableReadWriteLock second = new RevocableReadWriteLock(target.client(), dir, lock -> {
            asked.complete(lock);
            lock.unlockAsync();
        });
        assertTrue(first.writeLock().tryLock());
        CompletableFuture<Boolean> turn = second.writeLock().lockAsync(Duration.ofSeconds(10));
        Revoker revoker = new Revoker(target.client());
        List<String> nodes = List.of();
        long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (nodes.size() < 2 && System.nanoTime() < deadlineNs) {
            nodes = revoker.lockNodes(dir).get(5, TimeUnit.SECONDS);
        }
        CompletableFuture<RevocationOutcome> outcome = revoker.revoke(nodes.get(1), null);
        Thread.sleep(200);
        assertFalse(asked.isDone(), "a waiter is not asked before it holds the lock");
        first.writeLock().unlock();
        assertTrue(turn.get(5, TimeUnit.SECONDS));
        assertEquals(second.writeLock(), asked.get(5, TimeUnit.SECONDS));
        assertEquals(RevocationOutcome.RELEASED, outcome.get(5, TimeUnit.SECONDS));
    }

    @Test
    void revokingAGoneNodeSaysSo() {
        String dir = RecipeTarget.freshPath("revoke-gone");
        assertEquals(RevocationOutcome.ALREADY_GONE,
                new Revoker(target.client()).revoke(dir + "/write-0000000001", null, Duration.ofSeconds(5)));
    }
}
