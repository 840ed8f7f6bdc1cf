package dev.warden.consensus;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A follower's service to observers that follow it instead of the leader (ZooKeeper's
 * ObserverMaster, on with observerMasterPort): it offers them its leader's epoch, synchronizes
 * them from its own log up to what it has committed, then sends each entry it commits as an
 * INFORM. Only committed entries ever leave it, so an observer synced here holds a prefix of the
 * committed history, as one synced by the leader does. The observers' application data and
 * syncs go up to the leader ({@link ZabMessage.Relay}, a sync request of the master's own) and
 * the answers come back down; the leader's heartbeats and epoch bumps are passed on.
 *
 * <p>Lives as long as the {@link FollowerSide} that owns it: when the member stops following
 * that leader, its observers hear its votes and look for another master.
 */
final class ObserverMaster {
    private final PeerState state;
    private final long leaderId;
    private final SyncPlanner planner;
    private final Map<Long, LeaderLink> links = new LinkedHashMap<>();
    /**
     * Entries this member committed while following this leader that its log view may not show
     * yet (not durable here yet), by zxid: with the log, the source of an observer's sync. Those
     * the log view holds are dropped, since the log serves them.
     */
    private final TreeMap<Long, Entry> recentCommitted = new TreeMap<>();
    /** Sync requests relayed to the leader under tokens of our own (negative: the driver's are positive). */
    private final Map<Long, long[]> relayedSyncs = new HashMap<>();
    private long nextRelayToken = -1;
    private boolean serving;
    /** This member's committed zxid as last seen here: INFORMs continue from it. */
    private long committedSeenZxid;
    /**
     * Observers that asked before this member served, in the order they came: taken up when it
     * starts serving (a master still syncing after an election is the common case), so they need
     * not wait for their attempt to time out and try another.
     */
    private final Map<Long, ZabMessage.FollowerInfo> early = new LinkedHashMap<>();

    ObserverMaster(PeerState state, long leaderId) {
        this.state = state;
        this.leaderId = leaderId;
        this.planner = new SyncPlanner(state);
        this.committedSeenZxid = state.committedZxid;
    }

    /** The owning follower serves: observers are taken from now on, those that asked already first. */
    void startServing() {
        serving = true;
        // observers are synced up to what is committed from now on, and INFORMed after it
        committedSeenZxid = state.committedZxid;
        Map<Long, ZabMessage.FollowerInfo> asked = new LinkedHashMap<>(early);
        early.clear();
        asked.forEach(this::onFollowerInfo);
    }

    boolean serving() {
        return serving;
    }

    /** True if {@code memberId} is an observer this master has taken on. */
    boolean serves(long memberId) {
        return links.containsKey(memberId);
    }

    /** The observers this master has taken on, syncing or synced; a fresh set. */
    java.util.Set<Long> linked() {
        return java.util.Set.copyOf(links.keySet());
    }

    /** Observers synchronized from this member and receiving its INFORMs. */
    int observersServed() {
        int synced = 0;
        for (LeaderLink link : links.values()) {
            if (link.stage == LeaderLink.Stage.SYNCED) {
                synced++;
            }
        }
        return synced;
    }

    /** A message from an observer; false if it was not one for an observer master (the peer answers it). */
    boolean receive(long from, ZabMessage message) {
        if (message instanceof ZabMessage.FollowerInfo info) {
            return onFollowerInfo(from, info);
        }
        LeaderLink link = links.get(from);
        if (link == null) {
            return false;
        }
        link.lastHeardMs = state.nowMs;
        if (message instanceof ZabMessage.AckEpoch ack) {
            onAckEpoch(link, ack);
        } else if (message instanceof ZabMessage.AckNewLeader ack) {
            onAckNewLeader(link, ack);
        } else if (message instanceof ZabMessage.AppData data) {
            if (link.stage == LeaderLink.Stage.SYNCED) {
                state.out.send(leaderId, new ZabMessage.Relay(from, data.payload()));
            }
        } else if (message instanceof ZabMessage.SyncRequest request) {
            if (link.stage == LeaderLink.Stage.SYNCED) {
                long token = nextRelayToken--;
                relayedSyncs.put(token, new long[]{from, request.token()});
                state.out.send(leaderId, new ZabMessage.SyncRequest(token));
            }
        }
        // PingAck only tells us the observer is alive; an EpochBumpAck counts for nothing here
        return true;
    }

    private boolean onFollowerInfo(long from, ZabMessage.FollowerInfo info) {
        // A voter that asks to follow us took us for the leader: the peer tells it whom we follow.
        // An observer that promised a newer epoch than our leader's knows of a newer leader.
        if (!info.observer()) {
            return false;
        }
        if (!serving) {
            early.put(from, info);
            return true;
        }
        if (info.acceptedEpoch() > state.leaderEpoch) {
            links.remove(from);
            return false;
        }
        LeaderLink link = new LeaderLink(from, true, state.nowMs);
        link.acceptedEpoch = info.acceptedEpoch();
        link.lastZxid = info.lastZxid();
        links.put(from, link);
        link.stage = LeaderLink.Stage.EPOCH_SENT;
        link.offeredEpoch = state.leaderEpoch;
        // our leader's epoch is on our disk already (we serve): the offer promises nothing new
        state.out.send(from, new ZabMessage.LeaderInfo(state.leaderEpoch));
        return true;
    }

    private void onAckEpoch(LeaderLink link, ZabMessage.AckEpoch ack) {
        if (link.stage != LeaderLink.Stage.EPOCH_SENT) {
            return;
        }
        link.stage = LeaderLink.Stage.EPOCH_ACKED;
        link.lastZxid = ack.lastZxid();
        syncIfCaughtUp(link);
    }

    /**
     * An observer's log holds committed entries only, but ours may not reach as far yet (it came
     * from a master further ahead): it waits until we have committed its last entry, since cutting
     * its log back would undo entries it has applied.
     */
    private void syncIfCaughtUp(LeaderLink link) {
        if (link.stage != LeaderLink.Stage.EPOCH_ACKED || link.lastZxid > state.committedZxid) {
            return;
        }
        long upTo = state.committedZxid;
        SyncPlanner.Plan plan = planner.plan(link.lastZxid, upTo, unpersistedCommitted());
        for (ZabMessage message : plan.messages()) {
            state.out.send(link.id, message);
        }
        state.out.send(link.id, new ZabMessage.NewLeader(state.leaderEpoch, upTo, state.membership.upTo(upTo)));
        link.stage = LeaderLink.Stage.SYNC_SENT;
        link.syncedToZxid = upTo;
    }

    private EntryRun unpersistedCommitted() {
        recentCommitted.headMap(state.log.lastZxid(), true).clear();
        return EntryRun.of(recentCommitted.values());
    }

    private void onAckNewLeader(LeaderLink link, ZabMessage.AckNewLeader ack) {
        if (link.stage != LeaderLink.Stage.SYNC_SENT || ack.epoch() != state.leaderEpoch) {
            return;
        }
        link.stage = LeaderLink.Stage.SYNCED;
        state.out.send(link.id, new ZabMessage.UpToDate(state.committedZxid));
    }

    /**
     * This member committed up to its committed zxid, handing out {@code handedOut}: observers past
     * their sync get everything newly committed as an INFORM.
     */
    void committed(List<Entry> handedOut) {
        long from = committedSeenZxid;
        long to = state.committedZxid;
        if (to <= from) {
            return;
        }
        committedSeenZxid = to;
        for (Entry entry : handedOut) {
            recentCommitted.put(entry.zxid(), entry);
        }
        recentCommitted.headMap(state.log.lastZxid(), true).clear();
        List<Entry> entries = handedOut;
        if (hasForwardingLinks() && !continues(from, handedOut, to)) {
            // Entries this member logged before it started following (applied when it started)
            // commit without being handed out again; its observers still need them.
            entries = committedBetween(from, to);
        }
        int max = state.config.maxEntriesPerMessage();
        for (LeaderLink link : links.values()) {
            if (link.forwarding()) {
                for (int i = 0; i < entries.size(); i += max) {
                    List<Entry> chunk = List.copyOf(entries.subList(i, Math.min(entries.size(), i + max)));
                    state.out.send(link.id, new ZabMessage.Inform(chunk));
                }
            }
        }
        for (LeaderLink link : new ArrayList<>(links.values())) {
            syncIfCaughtUp(link);
        }
    }

    private boolean hasForwardingLinks() {
        for (LeaderLink link : links.values()) {
            if (link.forwarding()) {
                return true;
            }
        }
        return false;
    }

    /** True if {@code entries} are exactly those after {@code from} up to {@code to} (no entry before them missing). */
    private static boolean continues(long from, List<Entry> entries, long to) {
        if (entries.isEmpty() || entries.get(entries.size() - 1).zxid() != to) {
            return false;
        }
        long first = entries.get(0).zxid();
        return Zxid.epoch(first) == Zxid.epoch(from) && Zxid.counter(first) == Zxid.counter(from) + 1;
    }

    /** The committed entries after {@code from} up to {@code to}: from the log, then from memory. */
    private List<Entry> committedBetween(long from, long to) {
        List<Entry> entries = new ArrayList<>();
        long cursor = from;
        if (from >= state.log.firstReadableZxid()) {
            long logLast = Math.min(state.log.lastZxid(), to);
            while (cursor < logLast) {
                List<Entry> read = state.log.read(cursor, logLast, state.config.maxEntriesPerMessage());
                if (read.isEmpty()) {
                    break;
                }
                entries.addAll(read);
                cursor = read.get(read.size() - 1).zxid();
            }
        }
        entries.addAll(recentCommitted.subMap(cursor, false, to, true).values());
        return entries;
    }

    /** Our leader's heartbeat: observers that acknowledged their epoch hear it too, with what we committed. */
    void relayPing(ZabMessage.Ping ping) {
        for (LeaderLink link : links.values()) {
            if (link.atLeast(LeaderLink.Stage.EPOCH_SENT)) {
                state.out.send(link.id, new ZabMessage.Ping(ping.round(), state.committedZxid));
            }
        }
    }

    /** Our leader moves to a new epoch: observers must accept it before its entries reach them. */
    void relayEpochBump(ZabMessage.EpochBump bump) {
        for (LeaderLink link : links.values()) {
            if (link.atLeast(LeaderLink.Stage.EPOCH_SENT)) {
                state.out.send(link.id, bump);
            }
        }
    }

    /** The leader's application data for one of our observers. */
    void relayDown(ZabMessage.Relay relay) {
        LeaderLink link = links.get(relay.memberId());
        if (link != null && link.forwarding()) {
            state.out.send(link.id, new ZabMessage.AppData(relay.payload()));
        }
    }

    /** True if {@code reply} answers a sync relayed for an observer (and was passed on to it). */
    boolean syncReplied(ZabMessage.SyncReply reply) {
        long[] waiting = relayedSyncs.remove(reply.token());
        if (waiting == null) {
            return false;
        }
        LeaderLink link = links.get(waiting[0]);
        if (link != null && link.stage == LeaderLink.Stage.SYNCED) {
            state.out.send(link.id, new ZabMessage.SyncReply(waiting[1], reply.zxid()));
        }
        return true;
    }

    /** Drops observers not heard from within syncLimit (initLimit before they are synced). */
    void tick() {
        long syncLimitMs = state.config.syncLimitTicks() * state.config.tickMs();
        long initLimitMs = state.config.initLimitTicks() * state.config.tickMs();
        links.values().removeIf(link -> state.nowMs - link.lastHeardMs
                > (link.stage == LeaderLink.Stage.SYNCED ? syncLimitMs : initLimitMs));
    }

    void peerDisconnected(long peerId) {
        links.remove(peerId);
    }
}
