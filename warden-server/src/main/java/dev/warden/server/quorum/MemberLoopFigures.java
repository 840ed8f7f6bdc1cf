package dev.warden.server.quorum;

import dev.warden.consensus.ZabMessage;
import dev.warden.server.net.MemberStatus;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/** The loop's figures for other threads: transactions and syncs counted, followers' lag published every so often. */
final class MemberLoopFigures {
    /** How often a leader publishes its followers' lag for readers on other threads (metrics). */
    static final long FOLLOWER_LAG_PERIOD_MS = 100;
    private volatile Map<Long, Long> followerLag = Map.of();
    /** Batches at the log writer, published with the lag for readers on other threads. */
    private volatile int logBatchesInFlight;
    /** The member this learner syncs from (-1: none) and the observers it serves as their master, published with the lag. */
    private volatile long learnerMasterId = -1;
    private volatile int observersServed;
    /** The learners linked to this member as their leader or observer master, published with the lag. */
    private volatile java.util.Set<Long> learnersLinked = java.util.Set.of();
    /** Syncs this member started as leader, by kind (written on the loop's thread, read anywhere). */
    private final AtomicLong diffSyncs = new AtomicLong();
    private final AtomicLong snapSyncs = new AtomicLong();
    /** Transactions, as ZooKeeper counts them: proposed and committed as leader, received as learner. */
    private final AtomicLong proposals = new AtomicLong();
    private final AtomicLong commits = new AtomicLong();
    private final AtomicLong learnerProposals = new AtomicLong();
    private final AtomicLong learnerCommits = new AtomicLong();
    /** Loop's thread only. */
    private long followerLagPublishedMs = Long.MIN_VALUE / 2;

    /** Loop's thread: publishes the followers' lag and the batches in flight if the last time was a period ago. */
    void publishIfDue(long nowMs, ConsensusCore core, int batchesInFlight) {
        if (nowMs - followerLagPublishedMs >= FOLLOWER_LAG_PERIOD_MS) {
            followerLagPublishedMs = nowMs;
            followerLag = FollowerLag.of(core.lastLoggedZxid(), core.followerProgress());
            logBatchesInFlight = batchesInFlight;
            learnerMasterId = core.learnerMasterId();
            observersServed = core.observersServed();
            learnersLinked = core.learnersLinked();
        }
    }

    /** Leader: one transaction proposed. */
    void proposed() {
        proposals.incrementAndGet();
    }

    /** Learner: the leader proposed {@code transactions} to this member. */
    void learnerProposalsReceived(int transactions) {
        learnerProposals.addAndGet(transactions);
    }

    /** Committed as leader, or (follower, observer) as the leader told. */
    void committed(boolean leading, int transactions) {
        (leading ? commits : learnerCommits).addAndGet(transactions);
    }

    /** Counts a message to a peer that starts bringing it up to date. */
    void sent(ZabMessage message) {
        if (message instanceof ZabMessage.Snap) {
            snapSyncs.incrementAndGet();
        } else if (message instanceof ZabMessage.Diff || message instanceof ZabMessage.Trunc) {
            diffSyncs.incrementAndGet(); // a truncation is followed by a diff
        }
    }

    MemberStatus.TransactionCounts transactionCounts() {
        return new MemberStatus.TransactionCounts(proposals.get(), commits.get(),
                learnerProposals.get(), learnerCommits.get());
    }

    Map<Long, Long> followerLag() {
        return followerLag;
    }

    int logBatchesInFlight() {
        return logBatchesInFlight;
    }

    long learnerMasterId() {
        return learnerMasterId;
    }

    int observersServed() {
        return observersServed;
    }

    java.util.Set<Long> learnersLinked() {
        return learnersLinked;
    }

    long diffSyncs() {
        return diffSyncs.get();
    }

    long snapSyncs() {
        return snapSyncs.get();
    }
}
