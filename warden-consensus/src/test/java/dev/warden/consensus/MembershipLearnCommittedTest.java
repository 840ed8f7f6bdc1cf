package dev.warden.consensus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What a member makes of another's word, in a vote, that a configuration change committed. */
class MembershipLearnCommittedTest {
    private static Configuration config(long version, Set<Long> voters) {
        return new Configuration(version, new MajorityQuorum(voters, Set.of()), ("v" + version).getBytes(StandardCharsets.UTF_8));
    }

    private static final Configuration OLD = config(Zxid.of(1, 3), Set.of(3L));
    private static final Configuration CHANGE = config(Zxid.of(2, 7), Set.of(4L));

    private static Membership withLoggedChange() {
        Membership membership = new Membership(Configurations.of(config(0, Set.of(1L, 2L, 3L))), ConfigEntryCodec.NONE);
        membership.adopt(new Configurations(OLD, List.of(CHANGE)));
        membership.takeActivated();
        return membership;
    }

    @Test
    void aLoggedChangeSaidToBeCommittedTakesEffect() {
        Membership membership = withLoggedChange();
        assertFalse(membership.mayLead(4), "under the older configuration member 4 may not lead");
        assertTrue(membership.learnCommitted(CHANGE.version()));
        assertEquals(CHANGE, membership.committed());
        assertTrue(membership.mayLead(4));
        assertTrue(membership.loggedVersions().isEmpty(), "the change is no longer pending");
        assertTrue(membership.takeActivated());
    }

    @Test
    void aChangeNotLoggedHereIsNotTakenOnWord() {
        Membership membership = withLoggedChange();
        assertFalse(membership.learnCommitted(Zxid.of(2, 9)), "nothing is known of its members");
        assertFalse(membership.learnCommitted(OLD.version()), "not newer than ours");
        assertEquals(OLD, membership.committed());
        assertFalse(membership.takeActivated());
    }
}
