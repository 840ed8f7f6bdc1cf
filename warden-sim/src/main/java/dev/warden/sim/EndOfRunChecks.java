package dev.warden.sim;

import dev.warden.consensus.Role;
import dev.warden.consensus.ZabPeer;
import java.util.Collection;

/** What a run is judged by once its faults stop: has it converged, and do its members agree. */
final class EndOfRunChecks {
    private EndOfRunChecks() {
    }

    /** True when every member is up, serving, and has applied the same history as the leader. */
    /** Serving observers, among the members up, that follow a member other than their leader (an observer master). */
    static int observersOnMasters(Collection<SimServer> members) {
        int count = 0;
        for (SimServer member : members) {
            ZabPeer peer = member.isUp() ? member.peer() : null;
            if (peer != null && peer.role() == Role.OBSERVING && peer.isServing()
                    && peer.learnerMasterId() != peer.leaderId()) {
                count++;
            }
        }
        return count;
    }

    static boolean converged(Collection<SimServer> members, SimServer leader) {
        if (leader == null) {
            return false;
        }
        for (SimServer member : members) {
            if (!member.isServing() || member.machine().lastZxid() != leader.machine().lastZxid()
                    || member.peer().committedZxid() != leader.peer().committedZxid()) {
                return false;
            }
        }
        return true;
    }

    /** The final checks once converged: equal digests, acknowledged writes everywhere, linearizable writes. */
    static void check(Collection<SimServer> members, SimServer leader, Checkers checkers) {
        for (SimServer member : members) {
            if (member.machine().digest() != leader.machine().digest()) {
                throw new Checkers.Violation("member " + member.id() + " digest differs from leader " + leader.id());
            }
            checkers.checkAckedWritesSurvive(member);
        }
        checkers.checkLinearizable();
    }

    /** Each member's role, epochs, log tail and configurations, for a failure message. */
    static String describe(Collection<SimServer> members) {
        StringBuilder out = new StringBuilder();
        for (SimServer member : members) {
            out.append("member ").append(member.id());
            if (!member.isUp()) {
                out.append(" down; ");
                continue;
            }
            out.append(' ').append(member.peer().role()).append(member.isServing() ? " serving" : "")
                    .append(" leader ").append(member.peer().leaderId())
                    .append(' ').append(member.peer().epochs())
                    .append(" last ").append(Long.toHexString(member.disk.lastZxid()))
                    .append(" resync ").append(member.peer().isResyncRequired())
                    .append(" configs ").append(member.peer().configurations()).append("; ");
        }
        return out.toString();
    }
}
