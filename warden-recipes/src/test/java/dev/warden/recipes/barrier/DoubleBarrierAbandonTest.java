package dev.warden.recipes.barrier;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.client.WardenClient;
import dev.warden.recipes.testing.CallbackGate;
import dev.warden.recipes.testing.RecipeTarget;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A member closed while its entry is still making the barrier's path, before its own create is
 * sent: the close's delete reaches the servers first and finds nothing. The create that follows
 * must not leave a member behind (it used to, counting towards the threshold for ever).
 */
class DoubleBarrierAbandonTest {
    @Test
    void closeBeforeTheEntryCreateIsSentLeavesNoMember() throws Exception {
        try (RecipeTarget target = RecipeTarget.start()) {
            WardenClient client = target.client();
            String path = RecipeTarget.freshPath("barrier-abandon");
            DoubleBarrier barrier = new DoubleBarrier(client, path, "a", 2);

            CallbackGate beforePathMade = CallbackGate.place(client).awaitReached();
            // Sends the create of the barrier's path; the member's create waits for its reply.
            CompletableFuture<Void> entered = barrier.enter();
            barrier.close();
            beforePathMade.open();

            ExecutionException failure = assertThrows(ExecutionException.class, () -> entered.get(5, TimeUnit.SECONDS));
            assertInstanceOf(IllegalStateException.class, failure.getCause());
            // The entry removed its node before failing, so this later read sees the result.
            assertTrue(client.exists(path + "/a").get(5, TimeUnit.SECONDS).isEmpty(), "member left after close");
        }
    }
}
