package dev.warden.recipes.election;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.client.WardenClient;
import dev.warden.recipes.testing.RecipeTarget;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Stress test: a participant closed the moment it becomes leader. The turn is decided on the
 * client's thread and the close runs on the caller's, so the close can come between the
 * leadership flag being set and {@code elected()} being delivered. The listener must then hear
 * either nothing or {@code elected()} followed by {@code notLeader()}; when {@code elected()}
 * was delivered outside any ordering with the close, it came after the close's
 * {@code notLeader()}, about once in a few hundred rounds here.
 */
class LeaderElectionListenerOrderTest {
    private static final int ROUNDS = 800;

    @Test
    void aCloseRacingTheElectionNeverReachesTheListenerBeforeElected() throws Exception {
        try (RecipeTarget target = RecipeTarget.start()) {
            WardenClient client = target.client();
            String base = RecipeTarget.freshPath("election-order");
            List<String> misordered = new ArrayList<>();
            for (int round = 0; round < ROUNDS; round++) {
                List<String> heard = new CopyOnWriteArrayList<>();
                LeaderElection election = new LeaderElection(client, base + "/" + round, "p", new LeadershipListener() {
                    @Override
                    public void elected() {
                        heard.add("elected");
                    }

                    @Override
                    public void notLeader(String reason) {
                        heard.add("notLeader");
                    }
                });
                election.start();
                long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                // Spin rather than wait, to close as soon after the decision as possible.
                while (!election.isLeader()) {
                    assertTrue(System.nanoTime() < deadlineNs, "the only participant was not elected");
                    Thread.onSpinWait();
                }
                election.close();
                // A reply completed after the close's delete has run after every callback before it,
                // so an elected() still queued on the client's thread has been delivered by now.
                client.exists(base).get(10, TimeUnit.SECONDS);
                if (!heard.isEmpty() && !heard.equals(List.of("elected", "notLeader"))) {
                    misordered.add("round " + round + ": " + heard);
                }
            }
            assertEquals(List.of(), misordered, "listener calls out of order");
        }
    }
}
