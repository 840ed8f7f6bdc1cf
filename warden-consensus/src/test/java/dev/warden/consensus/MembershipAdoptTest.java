package dev.warden.consensus;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What a learner takes of the leader's configurations when it synchronizes. */
class MembershipAdoptTest {
    private static Configuration config(long version, Set<Long> voters, String lines) {
        return new Configuration(version, new MajorityQuorum(voters, Set.of()), lines.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void atTheSameVersionAMembersOwnAddressesStay() {
        Configuration mine = config(0, Set.of(1L, 2L, 3L), "server.1=127.0.0.1:2001:3001\n");
        Configuration leaders = config(0, Set.of(1L, 2L, 3L), "server.1=127.0.0.1:9001:9501\n");
        Membership membership = new Membership(Configurations.of(mine), ConfigEntryCodec.NONE);
        membership.adopt(Configurations.of(leaders));
        assertArrayEquals(mine.data(), membership.committed().data(), "the leader's view of the addresses");
        assertFalse(membership.takeActivated());
    }

    @Test
    void atTheSameVersionADifferentQuorumIsTheLeaders() {
        Configuration mine = config(0, Set.of(1L, 2L, 3L), "a");
        Configuration leaders = config(0, Set.of(1L, 2L, 3L, 4L, 5L), "b");
        Membership membership = new Membership(Configurations.of(mine), ConfigEntryCodec.NONE);
        membership.adopt(Configurations.of(leaders));
        assertEquals(leaders, membership.committed());
        assertTrue(membership.takeActivated());
    }

    @Test
    void aNewerVersionIsTheLeaders() {
        Configuration mine = config(0, Set.of(1L, 2L, 3L), "a");
        Configuration leaders = config(Zxid.of(1, 5), Set.of(1L, 2L, 3L), "b");
        Membership membership = new Membership(Configurations.of(mine), ConfigEntryCodec.NONE);
        membership.adopt(Configurations.of(leaders));
        assertEquals(leaders, membership.committed());
        assertTrue(membership.takeActivated());
    }
}
