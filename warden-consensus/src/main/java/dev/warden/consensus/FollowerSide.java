package dev.warden.consensus;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Set;

/**
 * A follower's or observer's side of discovery, synchronization and broadcast, for one leader.
 * Everything it acknowledges is persisted first: acknowledgements go in sendAfterPersist.
 * A new instance is made each time the member starts following someone.
 *
 * <p>With observer masters on, an observer may take all of it from a follower of that leader
 * instead (its upstream), which relays the leader's stream; a follower then also serves
 * observers ({@link ObserverMaster}).
 */
final class FollowerSide {
    enum Stage { DISCOVERING, EPOCH_ACKED, SYNCING, SYNCED, SERVING }

    private final PeerState state;
    private final long leaderId;
    /** Whom this member syncs from and talks to: the leader, or an observer's master. */
    private final long upstreamId;
    /** A follower's service to observers (null unless observer masters are on and this member follows). */
    private final ObserverMaster observerMaster;
    private final Role role;
    /** When this member asks its upstream (sends FollowerInfo): its initLimit counts from then. */
    private final long startedMs;
    /** An observer waiting out its reconnect delay has not asked yet, and takes nothing from its upstream. */
    private boolean asked;
    private long sentAcceptedEpoch;
    private Stage stage = Stage.DISCOVERING;
    private long epoch = -1;
    private long lastHeardMs;
    /** Sync-stream messages that reset the log wait here until earlier log writes are in a finished batch. */
    private final Deque<ZabMessage> deferred = new ArrayDeque<>();
    private boolean failed;
    /** Cumulative, counted from batches finished while serving: this leader's proposals on our disk. */
    private long ownDurableZxid;
    /** Cumulative, from LeaderDurable: this leader's proposals on its disk. */
    private long leaderDurableZxid;

    /**
     * @param role       the role the member joins in: the election's decision (see {@code Election})
     * @param upstreamId the member to sync from: {@code leaderId}, or for an observer its master
     * @param waitMs     how long to wait before asking it (an observer's reconnect delay; 0 asks now)
     */
    FollowerSide(PeerState state, long leaderId, long upstreamId, Role role, long waitMs) {
        this.state = state;
        this.leaderId = leaderId;
        this.upstreamId = upstreamId;
        this.role = role;
        this.observerMaster = role == Role.FOLLOWING && state.config.observerMasters()
                ? new ObserverMaster(state, leaderId) : null;
        this.startedMs = state.nowMs + waitMs;
        this.lastHeardMs = startedMs;
        state.setRole(role, leaderId, -1, false);
        if (waitMs == 0) {
            ask();
        }
    }

    private void ask() {
        asked = true;
        sentAcceptedEpoch = state.epochs.acceptedEpoch();
        state.out.send(upstreamId, new ZabMessage.FollowerInfo(sentAcceptedEpoch, state.lastLoggedZxid,
                role == Role.OBSERVING, state.resyncRequired));
    }

    long leaderId() {
        return leaderId;
    }

    /** The member this one syncs from and hears the leader's stream from (the leader, or a master). */
    long upstreamId() {
        return upstreamId;
    }

    /** This follower's service to observers, or null. */
    ObserverMaster observerMaster() {
        return observerMaster;
    }

    long epoch() {
        return epoch;
    }

    /**
     * True if the committed configuration gives this member another role than the one it joined
     * with (an observer made a voter, or the reverse): it must join again in its new role.
     */
    boolean roleNoLongerFits() {
        boolean observer = state.membership.isObserver(state.config.myId());
        return observer != (role == Role.OBSERVING);
    }

    /** True once the member must give up on this leader and look for another. */
    boolean failed() {
        return failed;
    }

    boolean isServing() {
        return stage == Stage.SERVING;
    }

    void tick() {
        if (!asked) {
            if (state.nowMs < startedMs) {
                return;
            }
            ask();
        }
        long initDeadlineMs = startedMs + state.config.initLimitTicks() * state.config.tickMs();
        long syncDeadlineMs = lastHeardMs + state.config.syncLimitTicks() * state.config.tickMs();
        if (stage != Stage.SERVING ? state.nowMs > initDeadlineMs : state.nowMs > syncDeadlineMs) {
            failed = true;
        }
        // A master that serves observers offers its epoch as soon as our FollowerInfo arrives;
        // one still silent after syncLimit serves none (down, not serving yet, or without
        // observer masters): the observer moves on to the next instead of waiting out initLimit.
        long masterDeadlineMs = startedMs + state.config.syncLimitTicks() * state.config.tickMs();
        if (upstreamId != leaderId && stage == Stage.DISCOVERING && state.nowMs > masterDeadlineMs) {
            failed = true;
        }
        if (observerMaster != null) {
            observerMaster.tick();
        }
    }

    /** A member other than our upstream broke its link: an observer of ours, perhaps. */
    void peerDisconnected(long peerId) {
        if (observerMaster != null) {
            observerMaster.peerDisconnected(peerId);
        }
    }

    void receive(ZabMessage message) {
        if (!asked) {
            return; // left over from an earlier attempt: as while looking, nothing to take up
        }
        lastHeardMs = state.nowMs;
        if (!deferred.isEmpty() || resetsLog(message) && !state.out.canResetLog()) {
            deferred.add(message);
            return;
        }
        handle(message);
    }

    /**
     * The previous batch is done: its entries are on our disk, and messages held back for a fresh
     * batch may go now.
     */
    void afterAdvance(Ready done) {
        List<Entry> persisted = done.entriesToPersist();
        // Only batches finished while serving count: one finished just after we chose this leader
        // may hold an earlier leader's entries, which the sync stream may yet truncate.
        if (stage == Stage.SERVING && !persisted.isEmpty()) {
            ownDurableZxid = Math.max(ownDurableZxid, persisted.get(persisted.size() - 1).zxid());
            commitWhatTwoDisksHold();
        }
        while (!deferred.isEmpty() && !failed) {
            if (resetsLog(deferred.peek()) && !state.out.canResetLog()) {
                return;
            }
            handle(deferred.poll());
        }
    }

    private static boolean resetsLog(ZabMessage message) {
        return message instanceof ZabMessage.Trunc || message instanceof ZabMessage.Snap;
    }

    private void handle(ZabMessage message) {
        if (failed) {
            return;
        }
        if (message instanceof ZabMessage.LeaderInfo info) {
            onLeaderInfo(info);
        } else if (message instanceof ZabMessage.Diff) {
            startSync(Stage.SYNCING);
        } else if (message instanceof ZabMessage.Trunc trunc) {
            if (startSync(Stage.SYNCING)) {
                state.truncateTo(trunc.toZxid());
            }
        } else if (message instanceof ZabMessage.Snap snap) {
            if (startSync(Stage.SYNCING)) {
                state.installSnapshot(new SnapshotData(snap.zxid(), snap.snapshot()));
            }
        } else if (message instanceof ZabMessage.Propose propose) {
            onEntries(propose.entries(), stage.compareTo(Stage.SYNCED) >= 0);
        } else if (message instanceof ZabMessage.NewLeader newLeader) {
            onNewLeader(newLeader);
        } else if (message instanceof ZabMessage.UpToDate upToDate) {
            onUpToDate(upToDate);
        } else if (message instanceof ZabMessage.Commit commit) {
            if (stage.compareTo(Stage.SYNCED) >= 0) {
                commitUpTo(commit.zxid());
            }
        } else if (message instanceof ZabMessage.LeaderDurable durable) {
            if (stage == Stage.SERVING) {
                leaderDurableZxid = Math.max(leaderDurableZxid, durable.zxid());
                commitWhatTwoDisksHold();
            }
        } else if (message instanceof ZabMessage.Inform inform) {
            if (stage.compareTo(Stage.SYNCED) >= 0 && onEntries(inform.entries(), false)) {
                commitUpTo(state.lastLoggedZxid);
            }
        } else if (message instanceof ZabMessage.Ping ping) {
            if (stage.compareTo(Stage.EPOCH_ACKED) >= 0) {
                state.out.send(upstreamId, new ZabMessage.PingAck(ping.round()));
                if (observerMaster != null) {
                    observerMaster.relayPing(ping);
                }
            }
        } else if (message instanceof ZabMessage.EpochBump bump) {
            onEpochBump(bump);
        } else if (message instanceof ZabMessage.SyncReply reply) {
            if (stage == Stage.SERVING && (observerMaster == null || !observerMaster.syncReplied(reply))) {
                state.awaitApplied(reply.token(), reply.zxid());
            }
        } else if (message instanceof ZabMessage.AppData data) {
            // relayed by a master or sent by the leader: the application's word comes from the leader
            state.out.received(new Received(leaderId, data.payload()));
        } else if (message instanceof ZabMessage.Relay relay) {
            if (observerMaster != null) {
                observerMaster.relayDown(relay);
            }
        }
        // otherwise: messages only a leader handles, or stale election traffic: nothing to do
    }

    private void onLeaderInfo(ZabMessage.LeaderInfo info) {
        if (stage != Stage.DISCOVERING) {
            return;
        }
        long accepted = state.epochs.acceptedEpoch();
        if (info.newEpoch() > accepted) {
            state.persistEpochs(new EpochState(info.newEpoch(), state.epochs.currentEpoch()));
        } else if (info.newEpoch() != accepted || sentAcceptedEpoch != accepted) {
            // a leader proposing an epoch we already promised away (or a stale offer): not ours to follow
            failed = true;
            return;
        }
        epoch = info.newEpoch();
        stage = Stage.EPOCH_ACKED;
        state.out.sendAfterPersist(upstreamId, new ZabMessage.AckEpoch(state.epochs.currentEpoch(), state.lastLoggedZxid));
    }

    private boolean startSync(Stage next) {
        if (stage != Stage.EPOCH_ACKED) {
            return false;
        }
        stage = next;
        return true;
    }

    /** Logs entries that extend the tail; duplicates are skipped, a hole means the stream broke. */
    private boolean onEntries(List<Entry> entries, boolean ack) {
        if (stage.compareTo(Stage.SYNCING) < 0) {
            return false;
        }
        for (Entry entry : entries) {
            if (entry.zxid() <= state.lastLoggedZxid) {
                continue;
            }
            if (!state.followsTail(entry.zxid()) || Zxid.epoch(entry.zxid()) > state.epochs.acceptedEpoch()) {
                failed = true;
                return false;
            }
            state.append(entry);
        }
        if (ack && role == Role.FOLLOWING) {
            state.out.sendAfterPersist(leaderId, new ZabMessage.Ack(state.lastLoggedZxid));
        }
        return true;
    }

    /**
     * Where the leader and this member are a quorum (of every configuration we know: two or three
     * voters in a majority), what is on both the leader's disk and ours is committed: any later
     * leader is elected by a quorum that includes one of us, and takes the longest history among
     * them. This is the same rule the leader applies to our ACK, learned one
     * message sooner. Our log and the leader's agree up to the lower of the two, since we
     * synced to it and took its proposals in order.
     */
    private void commitWhatTwoDisksHold() {
        if (role == Role.FOLLOWING && state.isQuorum(Set.of(leaderId, state.config.myId()))) {
            commitUpTo(Math.min(ownDurableZxid, leaderDurableZxid));
        }
    }

    /** Commits, and passes what was newly committed on to the observers this member serves. */
    private void commitUpTo(long zxid) {
        List<Entry> committed = state.commitUpTo(zxid);
        if (observerMaster != null) {
            observerMaster.committed(committed);
        }
    }

    private void onNewLeader(ZabMessage.NewLeader newLeader) {
        if (stage != Stage.SYNCING) {
            return;
        }
        if (newLeader.epoch() > state.epochs.acceptedEpoch() || newLeader.lastZxid() != state.lastLoggedZxid) {
            failed = true;
            return;
        }
        // our log now holds the leader's history up to here: its configurations are ours
        state.adoptConfigurations(newLeader.configurations());
        if (roleNoLongerFits() || !state.membership.mayLead(leaderId)) {
            failed = true;
            return;
        }
        epoch = Math.max(epoch, newLeader.epoch());
        if (state.epochs.currentEpoch() < epoch) {
            state.persistEpochs(new EpochState(state.epochs.acceptedEpoch(), epoch));
        }
        stage = Stage.SYNCED;
        state.out.sendAfterPersist(upstreamId, new ZabMessage.AckNewLeader(epoch));
        if (role == Role.FOLLOWING) {
            state.out.sendAfterPersist(leaderId, new ZabMessage.Ack(state.lastLoggedZxid));
        }
    }

    private void onUpToDate(ZabMessage.UpToDate upToDate) {
        if (stage != Stage.SYNCED) {
            return;
        }
        commitUpTo(upToDate.committedZxid());
        stage = Stage.SERVING;
        state.setRole(role, leaderId, epoch, true);
        if (observerMaster != null) {
            observerMaster.startServing();
        }
        // everything the sync stream sent is on our disk (acknowledged after persisting)
        state.resynced();
    }

    private void onEpochBump(ZabMessage.EpochBump bump) {
        if (stage.compareTo(Stage.EPOCH_ACKED) < 0 || bump.newEpoch() <= epoch) {
            return;
        }
        EpochState now = state.epochs;
        if (now.acceptedEpoch() >= bump.newEpoch()) {
            return; // a promise for that epoch was already given: a second one must not count
        }
        long current = stage.compareTo(Stage.SYNCED) >= 0 ? bump.newEpoch() : now.currentEpoch();
        state.persistEpochs(new EpochState(bump.newEpoch(), Math.max(current, now.currentEpoch())));
        epoch = bump.newEpoch();
        if (stage == Stage.SERVING) {
            state.setRole(role, leaderId, epoch, true);
        }
        state.out.sendAfterPersist(upstreamId, new ZabMessage.EpochBumpAck(bump.newEpoch()));
        if (observerMaster != null) {
            observerMaster.relayEpochBump(bump);
        }
    }

    boolean sendToLeader(byte[] payload) {
        if (stage != Stage.SERVING) {
            return false;
        }
        state.out.send(upstreamId, new ZabMessage.AppData(payload));
        return true;
    }

    boolean sync(long token) {
        if (stage != Stage.SERVING) {
            return false;
        }
        state.out.send(upstreamId, new ZabMessage.SyncRequest(token));
        return true;
    }
}
