package dev.warden.recipes.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.client.WardenClient;
import dev.warden.recipes.testing.RecipeTarget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;

/**
 * A waiting turn released at the moment its predecessor leaves: the release (on the caller's
 * thread) and the grant (on the client's thread) race. Whichever wins, nothing may be left
 * queued. A release that read the phase and changed it under two separate locks once left a
 * granted node behind here about once in a few thousand rounds on a busy machine; this runs
 * enough rounds to catch that more often than not, in a few seconds.
 */
class SequentialTurnReleaseRaceTest {
    private static final int ROUNDS = 3_000;
    private static final QueueRule RULE = QueueRule.exclusive("turn-");

    @Test
    void releasingAWaiterAsItsPredecessorLeavesLeavesNothingQueued() throws Exception {
        try (RecipeTarget target = RecipeTarget.start()) {
            WardenClient first = target.client();
            WardenClient second = target.client();
            WardenClient observer = target.client();
            List<String> leftBehind = new ArrayList<>();
            for (int round = 0; round < ROUNDS; round++) {
                String dir = "/turn-race-" + round;
                SequentialTurn holder = newTurn(first, dir);
                assertTrue(holder.start(null).get(5, TimeUnit.SECONDS), "the first turn in an empty queue is held");
                SequentialTurn waiter = newTurn(second, dir);
                waiter.start(null);
                awaitQueued(observer, dir, 2);

                holder.release().get(5, TimeUnit.SECONDS);
                // The waiter hears of the deletion and is being granted on the client's thread now.
                RecipeCalls.await(waiter.release(), Duration.ofSeconds(5));

                List<String> children = observer.getChildren(dir).get(5, TimeUnit.SECONDS);
                if (!children.isEmpty()) {
                    leftBehind.add("round " + round + ": " + children);
                }
                observer.delete(dir).exceptionally(error -> null);
            }
            assertEquals(List.of(), leftBehind, "nodes left queued after both turns were released");
        }
    }

    private static SequentialTurn newTurn(WardenClient client, String dir) {
        return new SequentialTurn(client, dir, RULE, null, new IgnoredEvents(), new LongAdder());
    }

    private static void awaitQueued(WardenClient observer, String dir, int count) throws Exception {
        long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (observer.getChildren(dir).get(5, TimeUnit.SECONDS).size() < count) {
            assertTrue(System.nanoTime() < deadlineNs, "turns not queued in time");
            Thread.sleep(1);
        }
    }

    private static final class IgnoredEvents implements NodeEvents {
        @Override
        public void suspended() {
        }

        @Override
        public void reconnected() {
        }

        @Override
        public void lost(String reason) {
        }
    }
}
