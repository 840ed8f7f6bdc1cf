package dev.warden.consensus;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * An established leader's broadcast: proposals, quorum commits, heartbeats, linearizable sync
 * rounds and the epoch bump on counter exhaustion. Outgoing proposals and commits are held until
 * {@link #flush} so one batch sends one PROPOSE and one COMMIT per follower, in order.
 */
final class Broadcast {
    private final PeerState state;
    private final LeaderSide leader;
    private boolean started;
    /** The epoch proposals are made in now (it moves on an epoch bump). */
    private long startEpoch;
    /** The epoch we were established in: acks for anything since then count, across bumps. */
    private long establishedEpoch;
    /** Entries we proposed that are not both committed and on our own disk. */
    private final EntryRun inflight = new EntryRun();
    private final List<Entry> unsent = new ArrayList<>();
    private final List<Entry> informQueue = new ArrayList<>();
    private long ownPersistedZxid;
    private long lastCommitSent;
    private long lastDurableSent;
    private final PingRounds rounds;
    private long quorumLostSinceMs = -1;
    // epoch bump on counter exhaustion
    private long bumpEpoch = -1;
    private final Set<Long> bumpAcks = new HashSet<>();
    private boolean ownBumpDurable;
    private long bumpStartedMs;
    private final List<Entry> held = new ArrayList<>();
    /**
     * Observers that follow an observer master, by id: the follower that last relayed their
     * application data, through which the leader's answers go back to them.
     */
    private final Map<Long, Long> observerMasterOf = new HashMap<>();

    Broadcast(PeerState state, LeaderSide leader) {
        this.state = state;
        this.leader = leader;
        this.rounds = new PingRounds(state, leader);
    }

    void start(long epoch) {
        started = true;
        startEpoch = epoch;
        establishedEpoch = epoch;
        ownPersistedZxid = Math.max(ownPersistedZxid, state.log.lastZxid());
        lastCommitSent = state.committedZxid;
        rounds.startRound();
    }

    EntryRun unpersisted() {
        return inflight;
    }

    void tick() {
        rounds.tick();
        long syncLimitMs = state.config.syncLimitTicks() * state.config.tickMs();
        if (bumpEpoch > 0 && state.nowMs - bumpStartedMs > syncLimitMs) {
            // Members that rejoined having already promised the new epoch cannot count (that promise
            // may belong to another leader), so a bump can stall; an election then picks a fresh epoch.
            leader.fail();
            return;
        }
        // Silence is LeaderSide's check (a quorum heard within syncLimit). This one bounds the
        // time a leader goes on without a quorum of synced voters though it hears them: links
        // dropped and made again, followers that talk but do not finish their sync.
        if (state.isQuorum(leader.syncedVoters())) {
            quorumLostSinceMs = -1;
        } else if (quorumLostSinceMs < 0) {
            quorumLostSinceMs = state.nowMs;
        } else if (state.nowMs - quorumLostSinceMs > syncLimitMs) {
            leader.fail();
        }
    }

    void receive(LeaderLink link, ZabMessage message) {
        if (!started) {
            return;
        }
        if (message instanceof ZabMessage.Ack ack) {
            if (!link.observer && link.forwarding() && ack.zxid() <= state.lastLoggedZxid
                    && Zxid.epoch(ack.zxid()) >= establishedEpoch) {
                link.ackedZxid = Math.max(link.ackedZxid, ack.zxid());
                tryCommit();
            }
        } else if (message instanceof ZabMessage.PingAck ack) {
            rounds.onPingAck(link, ack.round());
        } else if (message instanceof ZabMessage.EpochBumpAck ack) {
            if (ack.newEpoch() == bumpEpoch && !link.observer) {
                bumpAcks.add(link.id);
                maybeFinishBump();
            }
        } else if (message instanceof ZabMessage.SyncRequest request) {
            if (link.stage == LeaderLink.Stage.SYNCED) {
                rounds.request(link.id, request.token(), state.committedZxid);
            }
        } else if (message instanceof ZabMessage.AppData data) {
            if (link.stage == LeaderLink.Stage.SYNCED) {
                state.out.received(new Received(link.id, data.payload()));
            }
        } else if (message instanceof ZabMessage.Relay relay) {
            // an observer's traffic through its master: delivered as the observer's own
            if (link.stage == LeaderLink.Stage.SYNCED && !link.observer && relay.memberId() != state.config.myId()) {
                observerMasterOf.put(relay.memberId(), link.id);
                state.out.received(new Received(relay.memberId(), relay.payload()));
            }
        }
        // otherwise: stale or misdirected traffic: a leader ignores it
    }

    /** A member accepted our offered epoch; if it is the epoch we are bumping to, that counts as a bump ack. */
    void onEpochAccepted(LeaderLink link) {
        if (bumpEpoch > 0 && link.offeredEpoch == bumpEpoch && link.acceptedEpoch < bumpEpoch && !link.observer) {
            bumpAcks.add(link.id);
            maybeFinishBump();
        }
    }

    long nextZxid() {
        long last = held.isEmpty() ? state.lastLoggedZxid : held.get(held.size() - 1).zxid();
        long epoch = bumpEpoch > 0 ? bumpEpoch : startEpoch;
        if (Zxid.epoch(last) < startEpoch) {
            return Zxid.of(startEpoch, 1);
        }
        if (Zxid.epoch(last) < epoch) {
            return Zxid.of(epoch, 1);
        }
        return Zxid.counter(last) >= state.maxCounter ? Zxid.of(Zxid.epoch(last) + 1, 1) : last + 1;
    }

    boolean propose(long zxid, byte[] payload) {
        if (!started) {
            return false;
        }
        long expected = nextZxid();
        if (zxid != expected) {
            throw new IllegalArgumentException("proposal " + Zxid.hex(zxid) + " out of order: expected "
                    + Zxid.hex(expected));
        }
        Entry entry = new Entry(zxid, payload);
        if (state.membership.isConfigurationEntry(entry)) {
            if (state.membership.hasLogged() || holdsConfigurationChange()) {
                throw new IllegalArgumentException("configuration change " + Zxid.hex(zxid)
                        + " proposed while another is in progress (checkReconfig says so first)");
            }
        }
        if (Zxid.epoch(zxid) > startEpoch) {
            if (bumpEpoch < 0) {
                startBump(Zxid.epoch(zxid));
            }
            held.add(entry);
            return true;
        }
        appendOwn(entry);
        return true;
    }

    /** True if a configuration change waits, off the log, for an epoch bump to finish. */
    boolean holdsConfigurationChange() {
        for (Entry entry : held) {
            if (state.membership.isConfigurationEntry(entry)) {
                return true;
            }
        }
        return false;
    }

    private void appendOwn(Entry entry) {
        state.append(entry);
        inflight.append(entry);
        unsent.add(entry);
    }

    private void startBump(long newEpoch) {
        bumpEpoch = newEpoch;
        bumpStartedMs = state.nowMs;
        leader.epoch = newEpoch;
        ownBumpDurable = false;
        bumpAcks.clear();
        // new-epoch entries stay off every disk, ours included, until a quorum promised the new epoch
        state.persistEpochs(new EpochState(newEpoch, newEpoch));
        flush();
        for (LeaderLink link : leader.links.values()) {
            if (link.atLeast(LeaderLink.Stage.EPOCH_SENT)) {
                state.out.send(link.id, new ZabMessage.EpochBump(newEpoch));
            }
        }
    }

    private void maybeFinishBump() {
        if (bumpEpoch < 0 || !ownBumpDurable) {
            return;
        }
        if (!state.isQuorum(state.withMe(bumpAcks))) {
            return;
        }
        startEpoch = bumpEpoch;
        bumpEpoch = -1;
        // release only this epoch's entries: a later epoch needs its own quorum of promises
        while (!held.isEmpty() && Zxid.epoch(held.get(0).zxid()) == startEpoch) {
            appendOwn(held.remove(0));
        }
        state.setRole(Role.LEADING, state.config.myId(), startEpoch, true);
        if (!held.isEmpty()) {
            startBump(Zxid.epoch(held.get(0).zxid()));
        }
    }

    void afterAdvance(Ready done) {
        if (!done.entriesToPersist().isEmpty()) {
            ownPersistedZxid = Math.max(ownPersistedZxid,
                    done.entriesToPersist().get(done.entriesToPersist().size() - 1).zxid());
        }
        if (done.epochs() != null && bumpEpoch > 0 && done.epochs().acceptedEpoch() >= bumpEpoch) {
            ownBumpDurable = true;
            maybeFinishBump();
        }
        if (started) {
            tryCommit();
        }
    }

    private void tryCommit() {
        Map<Long, Long> acks = new HashMap<>();
        acks.put(state.config.myId(), ownPersistedZxid);
        for (LeaderLink link : leader.links.values()) {
            if (!link.observer && link.forwarding()) {
                acks.put(link.id, link.ackedZxid);
            }
        }
        long target = Math.min(committable(acks), state.lastLoggedZxid);
        if (target > state.committedZxid) {
            informQueue.addAll(inflight.between(state.committedZxid, target));
            state.commitUpTo(target);
        }
        long settled = Math.min(state.committedZxid, ownPersistedZxid);
        inflight.dropUpTo(settled);
    }

    /**
     * The highest zxid whose acknowledgers (acknowledgements are cumulative) are a quorum of the
     * configurations it must satisfy: the committed one, plus every configuration entry logged at
     * or before it. So the entries before a configuration change commit with the old quorum
     * alone, and the change and everything after it need the old and the new.
     */
    private long committable(Map<Long, Long> acks) {
        TreeSet<Long> candidates = new TreeSet<>(acks.values());
        // the entry just before a configuration change may be committable where the acks around it are not
        for (long version : state.membership.loggedVersions()) {
            long before = inflight.lowerZxid(version);
            if (before >= 0) {
                candidates.add(before);
            }
        }
        for (long zxid : candidates.descendingSet()) {
            if (zxid <= state.committedZxid) {
                break;
            }
            Set<Long> ackers = new HashSet<>();
            for (Map.Entry<Long, Long> ack : acks.entrySet()) {
                if (ack.getValue() >= zxid) {
                    ackers.add(ack.getKey());
                }
            }
            if (state.membership.isQuorumFor(ackers, zxid)) {
                return zxid;
            }
        }
        return state.committedZxid;
    }

    /** Sends what this batch collected: one PROPOSE and one COMMIT/INFORM per member, then sync pings. */
    void flush() {
        if (!started) {
            return;
        }
        flushEntries();
        rounds.flush();
    }

    private void flushEntries() {
        if (!unsent.isEmpty()) {
            for (LeaderLink link : leader.links.values()) {
                if (!link.observer && link.forwarding()) {
                    sendChunked(link.id, unsent, false);
                }
            }
            unsent.clear();
        }
        if (state.committedZxid > lastCommitSent) {
            for (LeaderLink link : leader.links.values()) {
                if (!link.forwarding()) {
                    continue;
                }
                if (link.observer) {
                    sendChunked(link.id, informQueue, true);
                } else {
                    state.out.send(link.id, new ZabMessage.Commit(state.committedZxid));
                }
            }
            informQueue.clear();
            lastCommitSent = state.committedZxid;
        }
        // Only to a follower that, with us, is a quorum (two or three voters in a majority); with
        // more voters it would need to hear from others too, and waits for the COMMIT.
        if (ownPersistedZxid > Math.max(lastDurableSent, state.committedZxid)) {
            for (LeaderLink link : leader.links.values()) {
                if (!link.observer && link.forwarding() && state.isQuorum(Set.of(state.config.myId(), link.id))) {
                    state.out.send(link.id, new ZabMessage.LeaderDurable(ownPersistedZxid));
                }
            }
            lastDurableSent = ownPersistedZxid;
        }
    }

    private void sendChunked(long to, List<Entry> entries, boolean inform) {
        int max = state.config.maxEntriesPerMessage();
        for (int i = 0; i < entries.size(); i += max) {
            List<Entry> chunk = List.copyOf(entries.subList(i, Math.min(entries.size(), i + max)));
            state.out.send(to, inform ? new ZabMessage.Inform(chunk) : new ZabMessage.Propose(chunk));
        }
    }

    boolean sendTo(long peerId, byte[] payload) {
        if (!started) {
            return false;
        }
        LeaderLink link = leader.links.get(peerId);
        if (link != null && link.forwarding()) {
            flush();
            state.out.send(peerId, new ZabMessage.AppData(payload));
            return true;
        }
        // an observer that follows a master: the answer goes down through that master
        Long masterId = observerMasterOf.get(peerId);
        LeaderLink master = masterId == null ? null : leader.links.get(masterId);
        if (master == null || !master.forwarding()) {
            return false;
        }
        flush();
        state.out.send(masterId, new ZabMessage.Relay(peerId, payload));
        return true;
    }

    boolean sync(long token) {
        if (!started) {
            return false;
        }
        rounds.request(state.config.myId(), token, state.committedZxid);
        return true;
    }

    /** Before a sync reply leaves, commits queued for that member must leave first. */
    void replySync(long to, long token, long zxid) {
        if (to == state.config.myId()) {
            state.awaitApplied(token, zxid);
            return;
        }
        LeaderLink link = leader.links.get(to);
        if (link != null) {
            flushEntries();
            state.out.send(to, new ZabMessage.SyncReply(token, zxid));
        }
    }
}
