package dev.warden.consensus;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * State every phase shares: role, epochs, this member's logical log tail and what it has
 * committed and handed out for applying. The phase classes change it only through these methods,
 * so the bookkeeping (what is applied, what is durable) lives in one place.
 */
final class PeerState {
    final ZabConfig config;
    final LogView log;
    final SnapshotSource snapshots;
    final RandomGenerator random;
    /** The configurations this member knows; every quorum is counted against them. */
    final Membership membership;
    long nowMs;
    /** The last counter of an epoch; lowered only by tests, to reach an epoch bump quickly. */
    long maxCounter = Zxid.MAX_COUNTER;
    ReadyBuilder out = new ReadyBuilder();

    Role role = Role.LOOKING;
    long leaderId = -1;
    long leaderEpoch = -1;
    boolean serving;
    EpochState epochs;
    /**
     * This member set aside a history it could not vouch for (or never finished taking a copy of
     * one): until a leader has synchronized it, it is no candidate, and its promise counts only
     * beside members that kept their history and meet every quorum (it may have forgotten what it
     * acknowledged; {@link Membership#vouchesForHistory}).
     */
    boolean resyncRequired;

    /** Last zxid in this member's log including writes queued but not yet performed. */
    long lastLoggedZxid;
    long committedZxid;
    /** Everything up to here is in the driver's state machine, or handed out to be applied. */
    long appliedZxid;
    /** Entries logged (or queued) but not applied yet; committing hands them out in order. */
    private final EntryRun unapplied = new EntryRun();
    /** Sync tokens waiting until this member has applied the zxid in the value. */
    private final List<long[]> syncsWaiting = new ArrayList<>();
    private boolean configurationChanged;

    PeerState(ZabConfig config, EpochState persisted, LogView log, SnapshotSource snapshots, RandomGenerator random,
              long nowMs, boolean resyncRequired, Configurations configurations, ConfigEntryCodec codec) {
        this.config = config;
        this.membership = new Membership(configurations, codec);
        this.resyncRequired = resyncRequired;
        this.epochs = persisted;
        this.log = log;
        this.snapshots = snapshots;
        this.random = random;
        this.nowMs = nowMs;
        this.lastLoggedZxid = log.lastZxid();
        this.appliedZxid = lastLoggedZxid;
        this.committedZxid = 0;
    }

    /**
     * Every other member of every configuration this member knows, sorted: iteration order must
     * not depend on hashing, so runs replay exactly.
     */
    List<Long> others() {
        return membership.othersThan(config.myId());
    }

    /** True if {@code id} votes in the committed configuration. */
    boolean isVoter(long id) {
        return membership.isVoter(id);
    }

    /** This member's id with {@code ids}: the sets the quorum checks count include the leader itself. */
    Set<Long> withMe(Collection<Long> ids) {
        Set<Long> all = new HashSet<>(ids);
        all.add(config.myId());
        return all;
    }

    /** True if {@code ids} are a quorum of every configuration this member knows. */
    boolean isQuorum(Set<Long> ids) {
        return membership.isQuorum(ids);
    }

    void setRole(Role newRole, long newLeader, long epoch, boolean nowServing) {
        if (newRole == role && newLeader == leaderId && epoch == leaderEpoch && nowServing == serving) {
            return;
        }
        role = newRole;
        leaderId = newLeader;
        leaderEpoch = epoch;
        serving = nowServing;
        if (!nowServing) {
            syncsWaiting.clear();
        }
        out.roleChange(new RoleChange(newRole, newLeader, epoch, nowServing));
    }

    void persistEpochs(EpochState state) {
        Invariants.check(state.acceptedEpoch() >= epochs.acceptedEpoch(), "acceptedEpoch went backwards");
        Invariants.check(state.currentEpoch() >= epochs.currentEpoch(), "currentEpoch went backwards");
        epochs = state;
        out.epochs(state);
    }

    void append(Entry entry) {
        if (entry.zxid() <= lastLoggedZxid) {
            throw Invariants.violated("append " + Zxid.hex(entry.zxid()) + " after " + Zxid.hex(lastLoggedZxid));
        }
        lastLoggedZxid = entry.zxid();
        unapplied.append(entry);
        out.persist(entry);
        membership.onLogged(entry);
    }

    /** True if {@code zxid} may follow the current log tail without a hole. */
    boolean followsTail(long zxid) {
        if (lastLoggedZxid == 0) {
            return Zxid.counter(zxid) == 1;
        }
        long lastEpoch = Zxid.epoch(lastLoggedZxid);
        long epoch = Zxid.epoch(zxid);
        if (epoch == lastEpoch) {
            return Zxid.counter(zxid) == Zxid.counter(lastLoggedZxid) + 1;
        }
        // every epoch's proposals start at counter 1, so a later epoch must too
        return epoch > lastEpoch && Zxid.counter(zxid) == 1;
    }

    void truncateTo(long zxid) {
        Invariants.check(zxid >= committedZxid, "truncating committed entries: to " + Zxid.hex(zxid) + ", committed "
                + Zxid.hex(committedZxid));
        out.truncate(zxid);
        membership.truncatedAfter(zxid);
        unapplied.clear();
        lastLoggedZxid = zxid;
        appliedZxid = zxid;
    }

    /** Forgets the whole history (the driver sets it aside): the log starts again at zero. */
    void abandonHistory() {
        resyncRequired = true;
        out.abandonHistory();
        membership.logReplaced();
        unapplied.clear();
        lastLoggedZxid = 0;
        appliedZxid = 0;
        committedZxid = 0;
    }

    /** This member's log holds a leader's history again; it counts toward quorums from now on. */
    void resynced() {
        if (resyncRequired) {
            resyncRequired = false;
            out.resynced();
        }
    }

    void installSnapshot(SnapshotData snapshot) {
        out.snapshot(snapshot);
        membership.logReplaced();
        unapplied.clear();
        lastLoggedZxid = snapshot.zxid();
        appliedZxid = snapshot.zxid();
        committedZxid = Math.min(committedZxid, snapshot.zxid());
    }

    /**
     * Commits everything logged up to {@code zxid} (cumulative) and hands new entries out for
     * applying. Returns the entries handed out (an observer master relays them to its observers).
     */
    List<Entry> commitUpTo(long zxid) {
        long target = Math.min(zxid, lastLoggedZxid);
        if (target <= committedZxid) {
            return List.of();
        }
        committedZxid = target;
        List<Entry> handedOut = unapplied.takeUpTo(target);
        for (Entry entry : handedOut) {
            if (entry.zxid() <= appliedZxid) {
                throw Invariants.violated("applying " + Zxid.hex(entry.zxid()) + " twice");
            }
            appliedZxid = entry.zxid();
            out.commit(entry);
        }
        appliedZxid = Math.max(appliedZxid, target);
        membership.committedUpTo(target);
        reportCommittedConfiguration();
        completeSyncs();
        return handedOut;
    }

    /** The leader's configurations, taken at synchronization. */
    void adoptConfigurations(Configurations leaders) {
        membership.adopt(leaders);
        reportCommittedConfiguration();
    }

    /** A member's vote says the change logged here as {@code version} committed; true if that changed ours. */
    boolean learnCommittedConfiguration(long version) {
        if (!membership.learnCommitted(version)) {
            return false;
        }
        reportCommittedConfiguration();
        return true;
    }

    private void reportCommittedConfiguration() {
        if (membership.takeActivated()) {
            configurationChanged = true;
            out.configurationCommitted(membership.committed());
        }
    }

    /** True once after the committed configuration changed: the peer checks its role and its leader. */
    boolean takeConfigurationChanged() {
        boolean was = configurationChanged;
        configurationChanged = false;
        return was;
    }

    void awaitApplied(long token, long zxid) {
        syncsWaiting.add(new long[]{token, zxid});
        completeSyncs();
    }

    private void completeSyncs() {
        Iterator<long[]> it = syncsWaiting.iterator();
        while (it.hasNext()) {
            long[] waiting = it.next();
            if (committedZxid >= waiting[1]) {
                out.syncDone(waiting[0]);
                it.remove();
            }
        }
    }
}
