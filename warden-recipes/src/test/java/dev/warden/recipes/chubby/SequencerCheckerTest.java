package dev.warden.recipes.chubby;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.client.WardenClient;
import dev.warden.protocol.CreateMode;
import dev.warden.recipes.testing.CallbackGate;
import dev.warden.recipes.testing.RecipeTarget;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class SequencerCheckerTest {
    /** isCurrent must not vouch for a sequencer whose check has not come back yet. */
    @Test
    void aStaleSequencerIsNotCurrentWhileItsCheckIsInFlight() throws Exception {
        try (RecipeTarget target = RecipeTarget.start()) {
            WardenClient client = target.client();
            String node = RecipeTarget.freshPath("sequencer");
            client.create(node, new byte[0], CreateMode.PERSISTENT).get(5, TimeUnit.SECONDS);
            client.setData(node, new byte[] {1}).get(5, TimeUnit.SECONDS);
            Sequencer stale = new Sequencer(node, 0);
            Sequencer valid = new Sequencer(node, 1);
            SequencerChecker checker = new SequencerChecker(client);

            CallbackGate beforeReply = CallbackGate.place(client).awaitReached();
            CompletableFuture<Boolean> staleSet = checker.setSequencer(stale);
            assertFalse(checker.isCurrent(stale), "current before its check came back");
            beforeReply.open();
            assertFalse(staleSet.get(5, TimeUnit.SECONDS));
            assertFalse(checker.isCurrent(stale));

            assertTrue(checker.setSequencer(valid).get(5, TimeUnit.SECONDS));
            assertTrue(checker.isCurrent(valid));
            client.setData(node, new byte[] {2}).get(5, TimeUnit.SECONDS);
            // The watch event comes before the reply to this later read on the same client.
            client.exists(node).get(5, TimeUnit.SECONDS);
            assertFalse(checker.isCurrent(valid), "still current after its node changed");
        }
    }
}
