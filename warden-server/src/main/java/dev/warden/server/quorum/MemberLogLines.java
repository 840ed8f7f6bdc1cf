package dev.warden.server.quorum;

import dev.warden.consensus.Outbound;
import dev.warden.consensus.RoleChange;
import dev.warden.consensus.ZabMessage;
import java.util.Optional;

/**
 * The lines a member logs about its role and about the members it brings up to date, worded for
 * an operator: no placeholder values (a member looking for a leader has no leader and no epoch
 * yet), and whether it serves clients, and if not what it waits for.
 */
final class MemberLogLines {
    private MemberLogLines() {
    }

    /** The line for a change of role, leader or serving. */
    static String roleChange(long myId, RoleChange change) {
        String epoch = change.epoch() >= 0 ? " in epoch " + change.epoch() : "";
        return switch (change.role()) {
            case LOOKING -> "member " + myId + ": LOOKING, electing a leader (not serving clients)";
            case LEADING -> "member " + myId + ": LEADING" + epoch + (change.serving() ? ", serving clients"
                    : ", waiting for a quorum of followers to sync (not serving clients yet)");
            case FOLLOWING, OBSERVING -> "member " + myId + ": " + change.role() + " leader " + change.leaderId() + epoch
                    + (change.serving() ? ", serving clients" : ", syncing with it (not serving clients yet)");
        };
    }

    /**
     * What a leader tells about one message it sends, if it is one that starts bringing a member
     * up to date: a snapshot (the whole tree), a diff, or a truncation of the member's log.
     */
    static Optional<String> syncSent(long myId, Outbound outbound) {
        ZabMessage message = outbound.message();
        if (message instanceof ZabMessage.Snap snap) {
            return Optional.of("member " + myId + ": sending member " + outbound.to() + " a snapshot as of zxid 0x"
                    + Long.toHexString(snap.zxid()) + " (" + snap.snapshot().length + " bytes): its log cannot be"
                    + " brought up to date with a diff");
        }
        if (message instanceof ZabMessage.Diff diff) {
            return Optional.of("member " + myId + ": bringing member " + outbound.to() + " up to date with a diff"
                    + " (to zxid 0x" + Long.toHexString(diff.leaderLastZxid()) + ")");
        }
        if (message instanceof ZabMessage.Trunc trunc) {
            return Optional.of("member " + myId + ": member " + outbound.to() + " truncates its log after zxid 0x"
                    + Long.toHexString(trunc.toZxid()) + " (entries the leader does not have), then takes a diff");
        }
        return Optional.empty();
    }
}
