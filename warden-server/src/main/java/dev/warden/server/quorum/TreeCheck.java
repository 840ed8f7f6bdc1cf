package dev.warden.server.quorum;

import dev.warden.state.pipeline.StateMachine;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Members check each other's trees while they run (ZooKeeper's {@code digest.enabled}). The
 * leader publishes the replicated digest of its tree right after a zxid it applied, a few times
 * a second while writes flow; each member reports its own digest right after the same zxid; the
 * leader decides with a quorum ({@link DigestVote}) and tells whoever differs to take a copy of
 * its history. A member that diverged (a bug, or damage that passed every checksum) so stops
 * serving, says why, and resynchronizes, vouching for no history until it has; if a quorum of
 * the others agree against the leader, it is the leader that does so.
 *
 * <p>Threads: {@link #applied}, {@link #leaderDigest} and {@link #reset} on the apply thread;
 * {@link #publish}, {@link #report}, {@link #resyncOrdered} and {@link #newTerm} on the driver
 * thread. Messages the apply thread sends leave through {@code sender}, never from the apply
 * thread itself, which must not wait on the driver's inbox (the driver waits on it during a rebuild).
 */
final class TreeCheck {
    private static final Logger log = LoggerFactory.getLogger(TreeCheck.class);
    /** How often the leader publishes its digest while the tree changes. */
    static final long PUBLISH_INTERVAL_MS = 100;
    /** How often it publishes the same digest again while nothing changes, for members that just joined. */
    static final long REPUBLISH_INTERVAL_MS = 1_000;

    private record Applied(long zxid, long digest) {
    }

    private final long myId;
    private final StateMachine state;
    private final MemberDriver driver;
    private final BooleanSupplier leading;
    private final Executor sender;
    private final Consumer<String> abandon;
    /** The other members of the committed configuration (driver thread). */
    private Set<Long> others = new TreeSet<>();
    private final DigestCheck own = new DigestCheck();
    /** Decides with the voters of the committed configuration (driver thread). */
    private DigestVote vote;
    /** The leader's newest applied zxid and digest, for the next publish (written by the apply thread). */
    private volatile Applied latest;
    /** Driver thread: the zxid last published, and when (monotonic ms). */
    private long lastPublishedZxid = -1;
    private long lastPublishedMs;
    /** Apply thread: set once this member was found to differ; cleared when its state is replaced. */
    private boolean diverged;
    private final AtomicLong mismatches = new AtomicLong();

    /**
     * @param leading  true while this member is the serving leader
     * @param sender   runs sends the apply thread asks for, off the apply thread
     * @param abandon  on the driver thread: give up this member's history, for the reason given
     */
    TreeCheck(long myId, Set<Long> memberIds, Set<Long> voterIds, StateMachine state, MemberDriver driver,
              BooleanSupplier leading, Executor sender, Consumer<String> abandon) {
        this.myId = myId;
        this.state = state;
        this.driver = driver;
        this.leading = leading;
        this.sender = sender;
        this.abandon = abandon;
        others.addAll(memberIds);
        others.remove(myId);
        this.vote = new DigestVote(myId, voterIds);
    }

    /** How many times this member's digest differed from another's at the same zxid. */
    long mismatchCount() {
        return mismatches.get();
    }

    // ---- apply thread -----------------------------------------------------------------------

    /** A transaction is in the tree. Zxids before the state became exact are not comparable. */
    void applied(long zxid) {
        if (zxid < state.exactFromZxid()) {
            return;
        }
        record(zxid, state.tree().replicatedDigest());
    }

    /**
     * Records the state as it is now (after recovery, a rebuild or a change of role), so the
     * leader's next digest can be compared with it before any new transaction is applied.
     */
    void noteState() {
        long zxid = state.tree().lastAppliedZxid();
        if (zxid > 0 && zxid >= state.exactFromZxid()) {
            record(zxid, state.tree().replicatedDigest());
        }
    }

    private void record(long zxid, long digest) {
        if (leading.getAsBoolean()) {
            latest = new Applied(zxid, digest);
            return;
        }
        for (DigestCheck.Sample sample : own.applied(zxid, digest)) {
            sendReport(sample);
        }
    }

    /** The leader's digest after {@code zxid} arrived. */
    void leaderDigest(long zxid, long leadersDigest) {
        DigestCheck.Sample sample = own.leaderDigest(zxid, leadersDigest, state.tree().lastAppliedZxid());
        if (sample != null) {
            sendReport(sample);
        }
    }

    private void sendReport(DigestCheck.Sample sample) {
        if (!sample.matches() && !diverged) {
            diverged = true;
            mismatches.incrementAndGet();
            log.warn("member {}: after zxid 0x{} its tree digest is {} where the leader's is {}; it reports this to"
                    + " the leader, which decides with a quorum who diverged", myId, Long.toHexString(sample.zxid()),
                    hex(sample.ours()), hex(sample.leaders()));
        }
        AppMessage report = new AppMessage.DigestReport(sample.zxid(), sample.ours());
        sender.execute(() -> driver.sendToLeader(report));
    }

    /** The state was replaced (a TRUNC, a SNAP, a history set aside): nothing recorded applies any more. */
    void reset() {
        own.reset();
        latest = null;
        diverged = false;
    }

    // ---- driver thread ----------------------------------------------------------------------

    /**
     * Leader: publishes its newest digest if the tree moved since the last one, or again after
     * {@link #REPUBLISH_INTERVAL_MS} so a member that just joined is checked without new writes.
     */
    void publish(long nowMs) {
        Applied now = latest;
        if (!leading.getAsBoolean() || now == null
                || now.zxid() == lastPublishedZxid && nowMs - lastPublishedMs < REPUBLISH_INTERVAL_MS) {
            return;
        }
        lastPublishedZxid = now.zxid();
        lastPublishedMs = nowMs;
        byte[] message = AppMessage.encode(new AppMessage.Digest(now.zxid(), now.digest()));
        for (long member : others) {
            driver.sendTo(member, message);
        }
        act(vote.published(now.zxid(), now.digest()));
    }

    /** Leader: a member reported its digest. */
    void report(long from, long zxid, long digest) {
        if (leading.getAsBoolean()) {
            act(vote.report(from, zxid, digest));
        }
    }

    private void act(List<DigestVote.Diverged> divergedMembers) {
        for (DigestVote.Diverged member : divergedMembers) {
            mismatches.incrementAndGet();
            String what = "after zxid 0x" + Long.toHexString(member.zxid()) + " its tree digest was "
                    + hex(member.theirs()) + " where a quorum of voters had " + hex(member.quorums());
            if (member.memberId() == myId) {
                log.error("member {} (leader): {}; its state diverged, so it steps down and takes a copy of the"
                        + " others' history", myId, what);
                abandon.accept("as leader, " + what);
            } else {
                log.error("member {} (leader): member {} diverged: {}; it is told to take a copy", myId,
                        member.memberId(), what);
                driver.sendTo(member.memberId(),
                        AppMessage.encode(new AppMessage.Resync(member.zxid(), member.quorums())));
            }
        }
    }

    /** The leader says this member diverged. */
    void resyncOrdered(long zxid, long quorums) {
        String what = "after zxid 0x" + Long.toHexString(zxid) + " its tree digest differs from the " + hex(quorums)
                + " a quorum of voters had";
        log.error("member {}: {}; its state diverged, so it stops serving and takes a copy of the leader's history",
                myId, what);
        abandon.accept(what);
    }

    /**
     * Driver thread: a new configuration is committed: digests go to its members and a quorum of
     * its voters decides. Rounds under way were counted with the old voters: they are dropped.
     */
    void configurationChanged(Set<Long> memberIds, Set<Long> voterIds) {
        Set<Long> next = new TreeSet<>(memberIds);
        next.remove(myId);
        others = next;
        vote = new DigestVote(myId, voterIds);
    }

    /** A new term begins (this member leads or follows anew): published rounds no longer apply. */
    void newTerm() {
        vote.clear();
        lastPublishedZxid = -1;
    }

    private static String hex(long digest) {
        return String.format("%016x", digest);
    }
}
