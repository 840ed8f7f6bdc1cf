package dev.warden.server.quorum;

import dev.warden.consensus.Role;

/**
 * A member's role, its leader and whether it serves clients, published by the driver as one
 * value so that a reader (srvr, stat, mntr) never mixes two sides of a role change.
 *
 * @param epoch       the epoch of the leader this member leads or follows (0 while looking)
 * @param electedAtMs wall-clock ms when this member first took its current role under that
 *                    leader and epoch, i.e. when the election that made the leader ended here
 *                    (0 while looking); a change of serving alone keeps it
 */
public record MemberStanding(Role role, long leaderId, boolean serving, long epoch, long electedAtMs) {
    /** Before the first election: looking, no leader, not serving. */
    static final MemberStanding INITIAL = new MemberStanding(Role.LOOKING, -1, false, 0, 0);

    /** The same standing, no longer serving (the driver failed or the log could not be written). */
    MemberStanding notServing() {
        return new MemberStanding(role, leaderId, false, epoch, electedAtMs);
    }

    /** The standing after a role change announced at {@code nowMs} (wall clock). */
    MemberStanding after(Role newRole, long newLeaderId, long newEpoch, boolean nowServing, long nowMs) {
        if (newRole == Role.LOOKING) {
            return new MemberStanding(newRole, newLeaderId, nowServing, 0, 0);
        }
        boolean sameReign = newRole == role && newLeaderId == leaderId && newEpoch == epoch && electedAtMs > 0;
        return new MemberStanding(newRole, newLeaderId, nowServing, newEpoch, sameReign ? electedAtMs : nowMs);
    }
}
