package dev.warden.sim;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The checkers must catch the recovery rule from before it had to prove continuity: a member
 * whose snapshots were all damaged and whose log had lost its start came up with the empty tree
 * plus a late part of the log, served it and could lead with it. Random seeds find it; the same
 * seed passes with the server's rule, which has the member take a copy instead.
 */
class CheckersCatchTrustingRecoveryTest {
    private static final int STEPS = 8_000;
    private static final int SEEDS_TO_SEARCH = 60;

    /** A member's committed history starting with an entry the ensemble's history has later: it lacks the start. */
    private static boolean lacksTheStartOfTheHistory(RandomRun.Failure failure) {
        String message = failure.getCause().getMessage();
        return failure.getCause() instanceof Checkers.Violation && message.contains(" committed ")
                && message.contains(" at position 0 where the history has ");
    }

    @Test
    void aSeedFailsWithTheEmptyTreeMembersHistoryAndPassesWithTheRealRule() {
        RandomRun.Options trusting = new RandomRun.Options(3, 0, STEPS, false, true);
        Long found = null;
        RandomRun.Failure failure = null;
        for (long seed = 1; seed <= SEEDS_TO_SEARCH && found == null; seed++) {
            try {
                RandomRun.run(seed, trusting);
            } catch (RandomRun.Failure f) {
                if (lacksTheStartOfTheHistory(f)) {
                    found = seed;
                    failure = f;
                }
            }
        }
        assertTrue(found != null, "no seed of 1.." + SEEDS_TO_SEARCH + " caught the trusting rule");
        assertInstanceOf(Checkers.Violation.class, failure.getCause());
        assertTrue(failure.getMessage().contains("--trusting-recovery"), failure.getMessage());

        RandomRun.Outcome outcome = RandomRun.run(found, new RandomRun.Options(3, 0, STEPS, false, false));
        assertTrue(outcome.faults().startLostRestarts() > 0 && outcome.faults().resyncStarts() > 0,
                "seed " + found + " restarts a member with every snapshot damaged and its log's start gone, "
                        + "which resyncs: " + outcome.faults());
    }
}
