package dev.warden.recipes.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.warden.client.WardenClient;
import dev.warden.client.WardenException;
import dev.warden.recipes.testing.CallbackGate;
import dev.warden.recipes.testing.Eventually;
import dev.warden.recipes.testing.RecipeTarget.ProxiedClient;
import dev.warden.recipes.testing.RecipeTarget;
import dev.warden.testsupport.FaultProxy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The lock file deleted after the attempt found it holds it but before the grant's own check
 * came back: the deletion event arrives first. The request must still fail (it used to wait
 * forever, the event having used up the one report of the loss), and the listener must not hear
 * of losing a lock the caller was never told it held.
 */
class LockGrantLossTest {
    @Test
    void lockFileDeletedBeforeTheGrantIsConfirmedFailsTheRequest() throws Exception {
        try (RecipeTarget target = RecipeTarget.start()) {
            ProxiedClient proxied = target.proxiedClient(RecipeTarget.DEFAULT_SESSION_TIMEOUT);
            WardenClient client = proxied.client();
            FaultProxy proxy = proxied.proxy();
            WardenClient observer = target.client();
            // At the top level, so the attempt's first request is the create itself.
            String lockPath = RecipeTarget.freshPath("grant-loss");
            LockFailureTest.RecordingListener listener = new LockFailureTest.RecordingListener();
            SimpleLock lock = new SimpleLock(client, lockPath, listener);

            // The create is applied but its reply is lost with the connection, so the attempt
            // reads the file (with a watch) to see whether it is its own.
            proxy.pauseReplies();
            CompletableFuture<Boolean> outcome = lock.lockAsync(Duration.ofSeconds(30));
            Eventually.holds(Duration.ofSeconds(5), () -> observer.exists(lockPath).join().isPresent(),
                    () -> "the create did not reach the server");
            CallbackGate afterRead = CallbackGate.place(client);
            proxy.drop();
            proxy.resume();
            // The gate's read is retried ahead of the attempt's read, sent when the create failed.
            afterRead.awaitReached();
            // Queued behind the attempt's read: the server answers it (the file is ours, the
            // watch is set), then deletes the file and sends the event, all before the exists()
            // that the grant sends once the gate opens.
            CompletableFuture<Void> deleted = client.delete(lockPath);
            afterRead.open();

            ExecutionException failure = assertThrows(ExecutionException.class, () -> outcome.get(5, TimeUnit.SECONDS));
            assertInstanceOf(WardenException.NoNodeException.class, failure.getCause());
            deleted.get(5, TimeUnit.SECONDS);
            assertEquals(List.of(), listener.states.stream().filter(state -> state == LockState.LOST).toList(),
                    "a lock never reported held was reported lost");
        }
    }
}
