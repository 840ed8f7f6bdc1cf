package dev.warden.server.quorum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.consensus.Outbound;
import dev.warden.consensus.Role;
import dev.warden.consensus.RoleChange;
import dev.warden.consensus.ZabMessage;
import java.util.List;
import org.junit.jupiter.api.Test;

class MemberLogLinesTest {
    @Test
    void aLookingMemberShowsNoPlaceholderLeaderOrEpoch() {
        String line = MemberLogLines.roleChange(3, new RoleChange(Role.LOOKING, -1, -1, false));
        assertEquals("member 3: LOOKING, electing a leader (not serving clients)", line);
        assertFalse(line.contains("-1"), line);
    }

    @Test
    void rolesSayWhomTheyFollowAndWhetherTheyServe() {
        assertEquals("member 2: FOLLOWING leader 1 in epoch 4, syncing with it (not serving clients yet)",
                MemberLogLines.roleChange(2, new RoleChange(Role.FOLLOWING, 1, 4, false)));
        assertEquals("member 2: FOLLOWING leader 1 in epoch 4, serving clients",
                MemberLogLines.roleChange(2, new RoleChange(Role.FOLLOWING, 1, 4, true)));
        assertEquals("member 1: LEADING in epoch 4, waiting for a quorum of followers to sync (not serving clients"
                + " yet)", MemberLogLines.roleChange(1, new RoleChange(Role.LEADING, 1, 4, false)));
        assertEquals("member 1: LEADING in epoch 4, serving clients",
                MemberLogLines.roleChange(1, new RoleChange(Role.LEADING, 1, 4, true)));
        assertEquals("member 5: OBSERVING leader 1 in epoch 4, serving clients",
                MemberLogLines.roleChange(5, new RoleChange(Role.OBSERVING, 1, 4, true)));
    }

    @Test
    void aLeaderTellsHowItBringsAMemberUpToDate() {
        assertEquals("member 1: sending member 3 a snapshot as of zxid 0x40000002a (5 bytes): its log cannot be"
                        + " brought up to date with a diff",
                MemberLogLines.syncSent(1, new Outbound(3, new ZabMessage.Snap(0x40000002aL, new byte[5]))).orElseThrow());
        assertTrue(MemberLogLines.syncSent(1, new Outbound(3, new ZabMessage.Diff(0x400000010L))).orElseThrow()
                .contains("member 3 up to date with a diff (to zxid 0x400000010)"));
        assertTrue(MemberLogLines.syncSent(1, new Outbound(3, new ZabMessage.Trunc(0x300000007L))).orElseThrow()
                .contains("member 3 truncates its log after zxid 0x300000007"));
    }

    @Test
    void broadcastTrafficSaysNothing() {
        for (ZabMessage message : List.of(new ZabMessage.Propose(List.of()), new ZabMessage.Commit(5),
                new ZabMessage.Ping(1, 5), new ZabMessage.UpToDate(5))) {
            assertTrue(MemberLogLines.syncSent(1, new Outbound(2, message)).isEmpty(), message.toString());
        }
    }
}
