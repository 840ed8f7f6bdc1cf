package dev.warden.server.quorum;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.warden.consensus.Role;
import org.junit.jupiter.api.Test;

/** The epoch and election time a member's standing carries through its role changes. */
class MemberStandingTest {
    @Test
    void theElectionTimeIsWhenTheRoleUnderALeaderAndEpochBeganAndSurvivesStartingToServe() {
        MemberStanding syncing = MemberStanding.INITIAL.after(Role.FOLLOWING, 3, 5, false, 1_000);
        assertEquals(5, syncing.epoch());
        assertEquals(1_000, syncing.electedAtMs());
        MemberStanding serving = syncing.after(Role.FOLLOWING, 3, 5, true, 1_400);
        assertEquals(1_000, serving.electedAtMs());
        assertEquals(1_000, serving.notServing().electedAtMs());
    }

    @Test
    void aNewEpochOrLeaderIsANewElectionAndLookingHasNone() {
        MemberStanding first = MemberStanding.INITIAL.after(Role.FOLLOWING, 3, 5, true, 1_000);
        MemberStanding looking = first.after(Role.LOOKING, -1, 0, false, 2_000);
        assertEquals(0, looking.epoch());
        assertEquals(0, looking.electedAtMs());
        MemberStanding leading = looking.after(Role.LEADING, 1, 6, false, 2_500);
        assertEquals(6, leading.epoch());
        assertEquals(2_500, leading.electedAtMs());
        assertEquals(3_000, leading.after(Role.LEADING, 1, 7, true, 3_000).electedAtMs());
    }
}
