package dev.warden.consensus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The quorum rules: majorities, ZooKeeper's groups and weights, and counting against several configurations. */
class QuorumVerifierTest {
    private static final HierarchicalQuorum NINE_IN_THREE_GROUPS = new HierarchicalQuorum(
            Map.of(1L, Set.of(1L, 2L, 3L), 2L, Set.of(4L, 5L, 6L), 3L, Set.of(7L, 8L, 9L)), Map.of(), Set.of());

    @Test
    void aMajorityIsMoreThanHalfOfTheVotersAndOnlyVotersCount() {
        MajorityQuorum four = new MajorityQuorum(Set.of(1L, 2L, 3L, 4L), Set.of(5L));
        assertFalse(four.containsQuorum(Set.of(1L, 2L)));
        assertFalse(four.containsQuorum(Set.of(1L, 2L, 5L, 99L)), "observers and strangers do not count");
        assertTrue(four.containsQuorum(Set.of(1L, 2L, 3L)));
        assertEquals(0, four.weight(5));
        assertTrue(four.mayLead(1));
        assertFalse(four.mayLead(5));
    }

    @Test
    void groupsNeedAMajorityOfTheirWeightInAMajorityOfGroups() {
        assertTrue(NINE_IN_THREE_GROUPS.containsQuorum(Set.of(1L, 2L, 4L, 5L)), "two from each of two groups");
        assertFalse(NINE_IN_THREE_GROUPS.containsQuorum(Set.of(1L, 2L, 3L, 4L, 7L)),
                "five members but a majority in one group only");
        assertEquals(Set.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L), NINE_IN_THREE_GROUPS.voters());
    }

    @Test
    void weightsDecideWithinAGroupAndWeightZeroNeverCounts() {
        HierarchicalQuorum weighted = new HierarchicalQuorum(Map.of(1L, Set.of(1L, 2L, 3L)),
                Map.of(1L, 3L, 2L, 1L, 3L, 0L), Set.of());
        assertTrue(weighted.containsQuorum(Set.of(1L)), "3 of a total of 4");
        assertFalse(weighted.containsQuorum(Set.of(2L, 3L)), "1 of 4: weight 0 adds nothing");
        assertFalse(weighted.mayLead(3));
        assertTrue(weighted.isVoter(3));
    }

    @Test
    void groupsOfWeightZeroAreLeftOutOfTheCount() {
        HierarchicalQuorum twoCount = new HierarchicalQuorum(
                Map.of(1L, Set.of(1L, 2L), 2L, Set.of(3L, 4L), 3L, Set.of(5L)), Map.of(5L, 0L), Set.of());
        // two weighted groups: a majority of them is both
        assertFalse(twoCount.containsQuorum(Set.of(1L, 2L, 5L)));
        assertTrue(twoCount.containsQuorum(Set.of(1L, 2L, 3L, 4L)));
    }

    @Test
    void badGroupsAndWeightsAreRefusedWithTheReason() {
        assertThrows(IllegalArgumentException.class, () -> new HierarchicalQuorum(
                Map.of(1L, Set.of(1L, 2L), 2L, Set.of(2L)), Map.of(), Set.of()), "one member in two groups");
        assertThrows(IllegalArgumentException.class, () -> new HierarchicalQuorum(
                Map.of(1L, Set.of(1L)), Map.of(7L, 1L), Set.of()), "a weight for a member in no group");
        assertThrows(IllegalArgumentException.class, () -> new HierarchicalQuorum(
                Map.of(1L, Set.of(1L)), Map.of(1L, 0L), Set.of()), "no weight anywhere");
        assertThrows(IllegalArgumentException.class, () -> new MajorityQuorum(Set.of(), Set.of(1L)));
        assertThrows(IllegalArgumentException.class, () -> new MajorityQuorum(Set.of(1L), Set.of(1L)));
    }

    @Test
    void whileAChangeIsLoggedEveryCountNeedsBothConfigurations() {
        Configuration old = Configuration.majority(0, Set.of(1L, 2L, 3L), Set.of());
        Configuration next = Configuration.majority(Zxid.of(1, 5), Set.of(3L, 4L, 5L), Set.of());
        Membership membership = new Membership(new Configurations(old, List.of(next)), ConfigEntryCodec.NONE);

        assertFalse(membership.isQuorum(Set.of(1L, 2L)), "old quorum only");
        assertFalse(membership.isQuorum(Set.of(4L, 5L)), "new quorum only");
        assertTrue(membership.isQuorum(Set.of(1L, 3L, 4L)));
        assertTrue(membership.isQuorumFor(Set.of(1L, 2L), Zxid.of(1, 4)), "entries before the change need the old only");
        assertEquals(Set.of(1L, 2L, 3L, 4L, 5L), membership.allVoters());

        membership.committedUpTo(Zxid.of(1, 5));
        assertTrue(membership.takeActivated());
        assertTrue(membership.isQuorum(Set.of(4L, 5L)), "committed: the new configuration alone");
        assertFalse(membership.isVoter(1));
    }
}
