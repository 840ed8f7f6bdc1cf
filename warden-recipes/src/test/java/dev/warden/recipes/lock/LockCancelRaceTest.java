package dev.warden.recipes.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.client.WardenClient;
import dev.warden.protocol.CreateMode;
import dev.warden.recipes.testing.CallbackGate;
import dev.warden.recipes.testing.RecipeTarget;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A lock request cancelled after the lock was granted but before the grant's own check of the
 * node came back (and so before the request could report true). The caller never learns it held
 * the lock, so the node must go. Gates on the client's completion thread stop the attempt right
 * there; each one is placed after the request the attempt is known to have sent at that point.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LockCancelRaceTest {
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
    void simpleLockCancelledWhileItsGrantIsCheckedLeavesNoLockFile() throws Exception {
        WardenClient client = target.client();
        WardenClient observer = target.client();
        // At the top level, so the attempt's first request is the create itself.
        String lockPath = RecipeTarget.freshPath("cancel-simple");
        SimpleLock lock = new SimpleLock(client, lockPath);

        CallbackGate beforeCreateReply = CallbackGate.place(client).awaitReached();
        CompletableFuture<Boolean> outcome = lock.lockAsync(Duration.ofSeconds(30));
        CallbackGate afterCreateReply = CallbackGate.place(client);
        beforeCreateReply.open();
        afterCreateReply.awaitReached();
        // The create succeeded and the grant's exists() is in flight behind this gate.
        assertTrue(observer.exists(lockPath).get(5, TimeUnit.SECONDS).isPresent());
        assertFalse(outcome.isDone());

        assertTrue(outcome.cancel(false));
        afterCreateReply.open();

        // Any delete was sent by the cancel, so this later read on the same client sees its effect.
        assertTrue(client.exists(lockPath).get(5, TimeUnit.SECONDS).isEmpty(), "lock file left after a cancelled request");
        assertFalse(lock.isHeld());
        SimpleLock other = new SimpleLock(observer, lockPath);
        assertTrue(other.tryLock());
        other.unlock();
    }

    @Test
    void sequentialLockCancelledWhileItsGrantIsReadLeavesNoNode() throws Exception {
        WardenClient client = target.client();
        WardenClient observer = target.client();
        String lockDir = RecipeTarget.freshPath("cancel-sequential");
        // Made beforehand, so the attempt's first request is the create of its node.
        observer.create(lockDir, new byte[0], CreateMode.PERSISTENT).get(5, TimeUnit.SECONDS);
        SequentialLock lock = new SequentialLock(client, lockDir);

        CallbackGate beforeCreateReply = CallbackGate.place(client).awaitReached();
        CompletableFuture<Boolean> outcome = lock.lockAsync(Duration.ofSeconds(30));
        CallbackGate afterCreateReply = CallbackGate.place(client);
        beforeCreateReply.open();
        afterCreateReply.awaitReached();
        // The create's reply was handled, so the listing is sent; stop again after its reply.
        CallbackGate afterListing = CallbackGate.place(client);
        afterCreateReply.open();
        afterListing.awaitReached();
        // Granted (nobody ahead); the grant's getData() is in flight behind this gate.
        assertEquals(1, observer.getChildren(lockDir).get(5, TimeUnit.SECONDS).size());
        assertFalse(outcome.isDone());

        assertTrue(outcome.cancel(false));
        afterListing.open();

        assertEquals(List.of(), client.getChildren(lockDir).get(5, TimeUnit.SECONDS), "lock node left after a cancelled request");
        assertFalse(lock.isHeld());
        SequentialLock other = new SequentialLock(observer, lockDir);
        assertTrue(other.tryLock());
        other.unlock();
    }
}
