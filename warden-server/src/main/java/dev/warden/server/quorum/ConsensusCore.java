package dev.warden.server.quorum;

import dev.warden.consensus.Configuration;
import dev.warden.consensus.Configurations;
import dev.warden.consensus.Ready;
import dev.warden.consensus.ReconfigCheck;
import dev.warden.consensus.Role;
import dev.warden.consensus.ZabMessage;

/**
 * The consensus core as the {@link MemberDriver} uses it: {@code dev.warden.consensus.ZabPeer}'s
 * methods, behind an interface so the driver and the replicated pipeline can be tested against
 * a simpler in-order core. Called from the driver thread only.
 */
public interface ConsensusCore {
    void tick(long nowMs);

    void receive(long fromId, ZabMessage message);

    void peerDisconnected(long peerId);

    boolean propose(long zxid, byte[] payload);

    /** The zxid the next proposal must use on a serving leader; -1 on any other member. */
    long nextZxid();

    boolean sendToLeader(byte[] payload);

    boolean sendTo(long peerId, byte[] payload);

    boolean sync(long token);

    /**
     * True if this member is a serving leader that heard from a quorum of voters, itself
     * included, within the last {@code windowMs} (as of the last tick). The member asks before
     * deciding anything on the leader's own authority: session expiry and container/TTL reaping.
     */
    boolean leaderHeardQuorumWithin(long windowMs);

    /** A serving leader's synced followers and the last zxid each has; empty otherwise (see ZabPeer). */
    default java.util.Map<Long, Long> followerProgress() {
        return java.util.Map.of();
    }

    /**
     * The member this learner syncs from: its leader, or with observer masters the follower an
     * observer follows; -1 unless following or observing, or where the core does not say.
     */
    default long learnerMasterId() {
        return -1;
    }

    /**
     * An observer with observer masters on: sync from {@code memberId} from its next attempt on
     * (ZooKeeper's setLearnerMaster; see {@code ZabPeer.requestLearnerMaster}). False if it cannot.
     */
    default boolean requestLearnerMaster(long memberId) {
        return false;
    }

    /** Learners linked to this leader, or observers to this observer master (see ZabPeer); empty elsewhere. */
    default java.util.Set<Long> learnersLinked() {
        return java.util.Set.of();
    }

    /** Observers this follower serves as their observer master; 0 elsewhere. */
    default int observersServed() {
        return 0;
    }

    /** The last zxid in this member's log as the core counts it; -1 where the core does not say. */
    default long lastLoggedZxid() {
        return -1;
    }

    Role role();

    long leaderId();

    boolean isServing();

    long committedZxid();

    /** Forget the whole history and take a copy from a leader (see {@code ZabPeer.abandonHistory}). */
    void abandonHistory();

    /** True while the member must take a copy of a leader's history before it counts toward any quorum. */
    boolean isResyncRequired();

    /** Whether a leader may propose {@code proposed} now (see {@code ZabPeer.checkReconfig}). */
    ReconfigCheck checkReconfig(Configuration proposed);

    /** A leader tells {@code peerId} (a member about to be added) that it leads; see {@code ZabPeer}. */
    default void announceLeadershipTo(long peerId) {
    }

    /** The newest configuration the member knows committed, and the changes logged after it. */
    Configurations configurations();

    /** Changes whenever {@link #configurations()} does. */
    long configurationChanges();

    boolean hasReady();

    Ready ready();

    void advance(Ready ready);
}
