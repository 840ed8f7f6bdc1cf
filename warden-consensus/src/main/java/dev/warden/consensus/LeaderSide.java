package dev.warden.consensus;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * A leader's discovery and synchronization: it gathers a quorum's epochs, picks a new epoch,
 * brings each follower to its history (DIFF/TRUNC/SNAP then NEWLEADER) and becomes established
 * once a quorum, itself included, acknowledged NEWLEADER. Broadcast is delegated to {@link Broadcast}.
 */
final class LeaderSide {
    enum Phase { DISCOVERY, SYNC, BROADCAST }

    private final PeerState state;
    private final SyncPlanner planner;
    final Broadcast broadcast;
    final Map<Long, LeaderLink> links = new LinkedHashMap<>();
    /**
     * When each learner was last heard from while following us, by id. Kept apart from the
     * links, so a link dropped and made again does not reset the clock: the leader steps down
     * on silence measured from the last message, not from when a link was dropped.
     */
    private final Map<Long, Long> learnerLastHeardMs = new HashMap<>();
    private final long startedMs;
    private Phase phase = Phase.DISCOVERY;
    long epoch = -1;
    private boolean ownCurrentEpochDurable;
    private boolean epochQuorum;
    private boolean failed;
    /** Observers whose log reaches past our committed zxid wait for it to get there ({@link #sync}). */
    private boolean observersWaitingForCommit;
    /** A snapshot for the members waiting at SNAPSHOT_WANTED is being taken; answered by {@link #snapshotTaken}. */
    private boolean snapshotAsked;
    /** Set while the source is being asked: an answer within the call is a snapshot taken at once. */
    private boolean answeredAtOnce;
    /** True while this is the peer's leader side: an answer that comes after it stopped leading is ignored. */
    private final Predicate<LeaderSide> isCurrent;
    /** The history we lead with, fixed when we started: no proposals happen before we are established. */
    private final long historyEpoch;
    private final long historyLastZxid;

    LeaderSide(PeerState state, Predicate<LeaderSide> isCurrent) {
        this.state = state;
        this.isCurrent = isCurrent;
        this.historyEpoch = state.epochs.currentEpoch();
        this.historyLastZxid = state.lastLoggedZxid;
        this.planner = new SyncPlanner(state);
        this.broadcast = new Broadcast(state, this);
        this.startedMs = state.nowMs;
        state.setRole(Role.LEADING, state.config.myId(), -1, false);
        maybeChooseEpoch();
    }

    boolean failed() {
        return failed;
    }

    void fail() {
        failed = true;
    }

    boolean established() {
        return phase == Phase.BROADCAST;
    }

    /** Each synced follower's last zxid as far as this leader knows (acknowledged, or synced to). */
    java.util.Map<Long, Long> followerProgress() {
        java.util.Map<Long, Long> progress = new java.util.TreeMap<>();
        for (LeaderLink link : links.values()) {
            if (!link.observer && link.atLeast(LeaderLink.Stage.SYNCED)) {
                progress.put(link.id, Math.max(link.ackedZxid, link.syncedToZxid));
            }
        }
        return progress;
    }

    void tick() {
        long initLimitMs = state.config.initLimitTicks() * state.config.tickMs();
        if (phase != Phase.BROADCAST && state.nowMs > startedMs + initLimitMs) {
            failed = true;
            return;
        }
        long syncLimitMs = state.config.syncLimitTicks() * state.config.tickMs();
        if (phase == Phase.BROADCAST && !heardQuorumWithin(syncLimitMs)) {
            // Checked first, before any link is dropped: a leader resumed after a pause longer
            // than syncLimit steps down at its first tick, before it handles anything queued.
            failed = true;
            return;
        }
        List<Long> silent = new ArrayList<>();
        for (LeaderLink link : links.values()) {
            long limitMs = link.atLeast(LeaderLink.Stage.SYNCED) ? syncLimitMs : initLimitMs;
            if (state.nowMs - link.lastHeardMs > limitMs) {
                silent.add(link.id);
            }
        }
        silent.forEach(links::remove);
        if (phase == Phase.BROADCAST) {
            broadcast.tick();
        }
    }

    void peerDisconnected(long peerId) {
        links.remove(peerId);
    }

    void receive(long from, ZabMessage message) {
        if (message instanceof ZabMessage.FollowerInfo info) {
            onFollowerInfo(from, info);
            return;
        }
        LeaderLink link = links.get(from);
        if (link == null) {
            return;
        }
        link.lastHeardMs = state.nowMs;
        heardFrom(from);
        if (message instanceof ZabMessage.AckEpoch ack) {
            onAckEpoch(link, ack);
        } else if (message instanceof ZabMessage.AckNewLeader ack) {
            onAckNewLeader(link, ack);
        } else {
            if (link.atLeast(LeaderLink.Stage.EPOCH_ACKED)) {
                broadcast.receive(link, message);
                syncObserversCommittedUpTo();
            }
        }
    }

    private void onFollowerInfo(long from, ZabMessage.FollowerInfo info) {
        // The learner's own word on its role decides what it is sent (proposals or INFORMs); what
        // its promises and acknowledgements count for is the configurations' business: a member
        // that is not a voter of them counts toward nothing. A member that joined in a role our
        // configuration does not give it learns ours at NEWLEADER and joins again.
        boolean observer = info.observer();
        heardFrom(from);
        // a new FOLLOWERINFO starts a new session with that member
        LeaderLink link = new LeaderLink(from, observer, state.nowMs);
        link.acceptedEpoch = info.acceptedEpoch();
        link.lastZxid = info.lastZxid();
        link.resyncing = info.resyncing();
        links.put(from, link);
        if (epoch < 0) {
            maybeChooseEpoch();
            return;
        }
        if (info.acceptedEpoch() > epoch) {
            // someone promised a newer leader: our leadership is stale
            failed = true;
        } else {
            // A member with acceptedEpoch == epoch promised this epoch before. It may rejoin (a follower that
            // restarted), but it does not count toward our quorum of promises, and it is synced only
            // once we hold that quorum: then no other leader can have one for this epoch
            offerEpoch(link);
        }
    }

    private void maybeChooseEpoch() {
        Set<Long> voters = new HashSet<>();
        voters.add(state.config.myId());
        long maxAccepted = state.epochs.acceptedEpoch();
        for (LeaderLink link : links.values()) {
            if (!actsAsObserver(link)) {
                // a resyncing member's promise still binds it, so the epoch must pass it too
                maxAccepted = Math.max(maxAccepted, link.acceptedEpoch);
                voters.add(link.id);
            }
        }
        if (!vouchesForHistory(voters)) {
            return;
        }
        epoch = maxAccepted + 1;
        Invariants.check(epoch <= 0x7fff_ffffL, "epoch space exhausted");
        phase = Phase.SYNC;
        state.persistEpochs(new EpochState(epoch, state.epochs.currentEpoch()));
        state.setRole(Role.LEADING, state.config.myId(), epoch, false);
        for (LeaderLink link : links.values()) {
            offerEpoch(link);
        }
        maybeCompleteDiscovery();
    }

    /**
     * True if the promises of {@code ids} (ours and our learners') make a quorum that vouches for
     * the history: a resyncing learner's promise counts, but its empty history vouches for
     * nothing, so the others must hold every committed entry between them.
     */
    private boolean vouchesForHistory(Set<Long> ids) {
        Set<Long> resyncing = new HashSet<>();
        for (long id : ids) {
            LeaderLink link = links.get(id);
            if (link != null && link.resyncing) {
                resyncing.add(id);
            }
        }
        return state.membership.vouchesForHistory(ids, resyncing);
    }

    private void offerEpoch(LeaderLink link) {
        link.stage = LeaderLink.Stage.EPOCH_SENT;
        link.offeredEpoch = epoch;
        // our own promise must be on disk before anyone acts on the offer
        state.out.sendAfterPersist(link.id, new ZabMessage.LeaderInfo(epoch));
    }

    private void onAckEpoch(LeaderLink link, ZabMessage.AckEpoch ack) {
        if (link.stage != LeaderLink.Stage.EPOCH_SENT) {
            return;
        }
        boolean ahead = ack.currentEpoch() > historyEpoch
                || ack.currentEpoch() == historyEpoch && ack.lastZxid() > historyLastZxid;
        boolean newer = ack.currentEpoch() > epoch;
        // Only a member that votes in one of our configurations can hold committed entries we
        // lack; a learner outside them (joining, or removed) that is ahead is cut back by TRUNC.
        boolean counts = state.membership.allVoters().contains(link.id);
        if (!actsAsObserver(link) && !link.resyncing && (!epochQuorum && ahead && counts || newer)) {
            // a member of our discovery quorum knows a newer history than ours: we must not lead
            failed = true;
            return;
        }
        link.stage = LeaderLink.Stage.EPOCH_ACKED;
        link.lastZxid = ack.lastZxid();
        broadcast.onEpochAccepted(link);
        if (!epochQuorum) {
            maybeCompleteDiscovery();
        } else if (!actsAsObserver(link) || phase == Phase.BROADCAST) {
            // observers only learn committed history, so they wait until we are established
            sync(link);
        }
    }

    /**
     * True if the learner is treated as an observer: it joined as one and none of our
     * configurations makes it a voter. One that joined as an observer while ours make it a voter
     * (its configuration is older or newer than our committed one) may be needed for our
     * quorums: its promise counts and is checked as a follower's (an observer persists its
     * promise too), and it is synchronized with the followers; at NEWLEADER it takes our
     * configurations and, its role no longer fitting, joins again as a follower. Were it left
     * to wait for our establishment, a leader needing it would wait for good.
     */
    private boolean actsAsObserver(LeaderLink link) {
        return link.observer && !state.membership.allVoters().contains(link.id);
    }

    /**
     * A quorum acknowledged our epoch and none of them knows a newer history, so ours holds
     * everything committed: only now may our history take the new epoch and followers sync to it.
     */
    private void maybeCompleteDiscovery() {
        Set<Long> acked = new HashSet<>();
        acked.add(state.config.myId());
        for (LeaderLink link : links.values()) {
            if (!actsAsObserver(link) && link.atLeast(LeaderLink.Stage.EPOCH_ACKED) && link.acceptedEpoch < epoch) {
                acked.add(link.id);
            }
        }
        if (!vouchesForHistory(acked)) {
            return;
        }
        epochQuorum = true;
        state.persistEpochs(new EpochState(epoch, epoch));
        for (LeaderLink link : links.values()) {
            if (!actsAsObserver(link) && link.stage == LeaderLink.Stage.EPOCH_ACKED) {
                sync(link);
            }
        }
    }

    /**
     * Brings {@code link} to our history: DIFF or TRUNC from the log at once; a SNAP once the
     * source has a snapshot ({@link SnapshotSource#takeInBackground}), meanwhile the member
     * waits at {@code SNAPSHOT_WANTED} and the writes go on.
     */
    private void sync(LeaderLink link) {
        if (phase == Phase.BROADCAST && link.observer && link.lastZxid > state.committedZxid
                && link.lastZxid <= state.lastLoggedZxid) {
            // An observer that came from a master whose own rule (two disks of two or three
            // voters, "Committing") committed entries we have logged and not yet counted as
            // committed: they are applied there, and cutting them back would undo them. It waits
            // until we have committed that far, as a master makes such an observer wait.
            observersWaitingForCommit = true;
            return;
        }
        broadcast.flush();
        long upTo = syncUpTo(link);
        SyncPlanner.Plan plan = planner.planFromLog(link.lastZxid, upTo, broadcast.unpersisted());
        if (plan != null) {
            sendSync(link, plan, upTo);
            return;
        }
        link.stage = LeaderLink.Stage.SNAPSHOT_WANTED;
        if (!snapshotAsked) {
            snapshotAsked = true;
            answeredAtOnce = true;
            state.snapshots.takeInBackground(snapshot -> {
                if (isCurrent.test(this)) {
                    snapshotTaken(snapshot);
                }
            });
            answeredAtOnce = false;
        }
    }

    /** Observers learn only committed entries; after their sync they get the rest through INFORM. */
    private long syncUpTo(LeaderLink link) {
        return phase == Phase.BROADCAST && link.observer ? state.committedZxid : state.lastLoggedZxid;
    }

    private void sendSync(LeaderLink link, SyncPlanner.Plan plan, long upTo) {
        for (ZabMessage message : plan.messages()) {
            state.out.send(link.id, message);
        }
        state.out.send(link.id, new ZabMessage.NewLeader(epoch, upTo, state.membership.upTo(upTo)));
        link.stage = LeaderLink.Stage.SYNC_SENT;
        link.ackedZxid = 0;
        link.syncedToZxid = upTo;
    }

    /**
     * The snapshot asked for: every member waiting for one gets it, with the entries logged since
     * it was taken. One the log no longer reaches back to is replaced by a new one.
     */
    private void snapshotTaken(SnapshotData snapshot) {
        snapshotAsked = false;
        if (failed) {
            return;
        }
        List<LeaderLink> waiting = new ArrayList<>();
        for (LeaderLink link : links.values()) {
            if (link.stage == LeaderLink.Stage.SNAPSHOT_WANTED) {
                waiting.add(link);
            }
        }
        if (waiting.isEmpty()) {
            return;
        }
        if (!answeredAtOnce && !planner.canFollow(snapshot)) {
            waiting.forEach(this::sync); // asks for a newer one (a snapshot taken at once is as new as any)
            return;
        }
        broadcast.flush();
        for (LeaderLink link : waiting) {
            long upTo = syncUpTo(link);
            sendSync(link, planner.planSnapshot(snapshot, upTo, broadcast.unpersisted()), upTo);
        }
    }

    /** Syncs the observers that waited for our committed zxid to reach their log's end, once it has. */
    private void syncObserversCommittedUpTo() {
        if (!observersWaitingForCommit || phase != Phase.BROADCAST) {
            return;
        }
        observersWaitingForCommit = false;
        for (LeaderLink link : List.copyOf(links.values())) {
            if (link.observer && link.stage == LeaderLink.Stage.EPOCH_ACKED) {
                sync(link); // sets the flag again for one still ahead of us
            }
        }
    }

    private void onAckNewLeader(LeaderLink link, ZabMessage.AckNewLeader ack) {
        if (link.stage != LeaderLink.Stage.SYNC_SENT || ack.epoch() != epoch) {
            return;
        }
        link.stage = LeaderLink.Stage.SYNCED;
        if (phase == Phase.BROADCAST) {
            broadcast.flush();
            state.out.send(link.id, new ZabMessage.UpToDate(state.committedZxid));
        } else {
            maybeEstablish();
        }
    }

    /** Called when a batch is done: our own epochs may now be durable. */
    void afterAdvance(Ready done) {
        if (failed) {
            return;
        }
        EpochState persisted = done.epochs();
        if (persisted != null && epochQuorum && persisted.currentEpoch() >= epoch && !ownCurrentEpochDurable) {
            ownCurrentEpochDurable = true;
            maybeEstablish();
        }
        broadcast.afterAdvance(done);
        syncObserversCommittedUpTo();
    }

    private void maybeEstablish() {
        if (phase != Phase.SYNC || !ownCurrentEpochDurable) {
            return;
        }
        if (!state.isQuorum(syncedVoters())) {
            return;
        }
        phase = Phase.BROADCAST;
        state.commitUpTo(state.lastLoggedZxid);
        broadcast.start(epoch);
        state.setRole(Role.LEADING, state.config.myId(), epoch, true);
        for (LeaderLink link : links.values()) {
            if (link.stage == LeaderLink.Stage.SYNCED) {
                state.out.send(link.id, new ZabMessage.UpToDate(state.committedZxid));
            } else if (link.observer && link.stage == LeaderLink.Stage.EPOCH_ACKED) {
                sync(link);
            }
        }
    }

    private void heardFrom(long id) {
        // every learner: whether it counts is decided at counting time, by the configurations then
        learnerLastHeardMs.put(id, state.nowMs);
    }

    /**
     * True if a quorum of voters, this member included, was heard from within the last
     * {@code windowMs} (on the clock of the last tick). Observers do not count.
     */
    boolean heardQuorumWithin(long windowMs) {
        Set<Long> heard = new HashSet<>();
        heard.add(state.config.myId());
        for (Map.Entry<Long, Long> lastHeard : learnerLastHeardMs.entrySet()) {
            if (state.nowMs - lastHeard.getValue() <= windowMs) {
                heard.add(lastHeard.getKey());
            }
        }
        return state.isQuorum(heard);
    }

    /**
     * Learners whose sync is done (their NEWLEADER acknowledgement says our history up to it is
     * on their disk), observers aside unless our configurations make them voters, and this member.
     */
    Set<Long> syncedVoters() {
        Set<Long> synced = new HashSet<>();
        synced.add(state.config.myId());
        for (LeaderLink link : links.values()) {
            if (!actsAsObserver(link) && link.stage == LeaderLink.Stage.SYNCED) {
                synced.add(link.id);
            }
        }
        return synced;
    }
}
