package dev.warden.server.quorum;

import dev.warden.consensus.ZabMessage;

/** What a host feeds the member loop ({@link MemberLoop#cycle}); the loop handles each in order. */
public sealed interface LoopEvent {
    /** A message from another member. */
    record PeerMessage(long from, ZabMessage message) implements LoopEvent {
    }

    /** The link to a member broke; messages to and from it may have been lost. */
    record PeerDown(long peerId) implements LoopEvent {
    }

    /** Leader: replicate this transaction (the prep step's own output). */
    record Propose(long zxid, byte[] payload) implements LoopEvent {
    }

    /**
     * Member traffic for the leader (a forwarded request, session activity). Encoded only when it
     * leaves this member: a leader hands its own straight to its prep, in the order it came.
     */
    record ToLeader(AppMessage message) implements LoopEvent {
    }

    /** Leader: member traffic for one member, ordered with the proposals and commits sent to it. */
    record ToMember(long peerId, byte[] payload) implements LoopEvent {
    }

    /** A client's linearizable sync. */
    record Sync(long token) implements LoopEvent {
    }

    /** Work that must run on the loop's thread, between events. */
    record Chore(Runnable body) implements LoopEvent {
    }

    /** The log writer finished (or failed) batches: settle them. */
    record LogProgress() implements LoopEvent {
    }
}
