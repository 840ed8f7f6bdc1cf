package dev.warden.server.quorum;

import dev.warden.consensus.Role;

/**
 * A member's role, its leader and whether it serves clients, published by the driver as one
 * value so that a reader (srvr, stat, mntr) never mixes two sides of a role change.
 */
public record MemberStanding(Role role, long leaderId, boolean serving) {
    /** Before the first election: looking, no leader, not serving. */
    static final MemberStanding INITIAL = new MemberStanding(Role.LOOKING, -1, false);

    /** The same standing, no longer serving (the driver failed or the log could not be written). */
    MemberStanding notServing() {
        return new MemberStanding(role, leaderId, false);
    }
}
