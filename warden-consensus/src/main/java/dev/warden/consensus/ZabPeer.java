package dev.warden.consensus;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * One member's Zab protocol as a pure state machine: no sockets, files, threads or clock.
 * The driver feeds it messages and the time, and performs the {@link Ready} batches it asks
 * for (persist, then send, then apply). Not thread-safe: one thread drives it.
 *
 * <p>At construction the driver has already rebuilt the state machine from its snapshot and
 * replayed its whole log into it, so everything up to {@code log.lastZxid()} counts as applied.
 */
public final class ZabPeer {
    private final PeerState state;
    private final Election election;
    private LeaderSide leader;
    private FollowerSide follower;
    /** Whom an observer follows next, and how long it waits before it asks. */
    private final ObserverUpstream observerUpstream;

    /**
     * FollowerInfo that came while we were looking, by sender in the order they came: taken up,
     * in that order, if we decide to lead.
     */
    private final Map<Long, ZabMessage.FollowerInfo> earlyFollowerInfos = new LinkedHashMap<>();

    public ZabPeer(ZabConfig config, EpochState persisted, LogView log, SnapshotSource snapshots,
                   RandomGenerator random, long nowMs) {
        this(config, persisted, log, snapshots, random, nowMs, false);
    }

    /**
     * @param resyncRequired the member set aside a history it could not vouch for (its resync
     *                       marker is on disk): it is no candidate and its promise counts only
     *                       beside members that vouch for the history, until a leader has
     *                       synchronized it ({@link Ready#resynced()} then says the marker may go)
     */
    public ZabPeer(ZabConfig config, EpochState persisted, LogView log, SnapshotSource snapshots,
                   RandomGenerator random, long nowMs, boolean resyncRequired) {
        this(config, persisted, log, snapshots, random, nowMs, resyncRequired,
                Configurations.of(Configuration.majority(0, config.voters(), config.observers())), ConfigEntryCodec.NONE);
    }

    /**
     * @param configurations the newest configuration this member knows committed (the last one a
     *                       {@link Ready#configurationCommitted()} reported, or the one its files
     *                       give) and the configuration entries its log holds after it, oldest
     *                       first; {@link ZabConfig#voters()} and {@link ZabConfig#observers()}
     *                       are then not used
     * @param codec          recognises the log entries that change the configuration
     */
    public ZabPeer(ZabConfig config, EpochState persisted, LogView log, SnapshotSource snapshots,
                   RandomGenerator random, long nowMs, boolean resyncRequired, Configurations configurations,
                   ConfigEntryCodec codec) {
        if (config == null || persisted == null || log == null || snapshots == null || random == null
                || configurations == null || codec == null) {
            throw new IllegalArgumentException(
                    "ZabPeer needs a config, epochs, log view, snapshot source, random, configurations and codec");
        }
        if (resyncRequired && log.lastZxid() != 0) {
            throw new IllegalArgumentException("a member that must resynchronize starts with an empty log");
        }
        this.state = new PeerState(config, persisted, log, snapshots, random, nowMs, resyncRequired, configurations,
                codec);
        this.election = new Election(state);
        this.observerUpstream = new ObserverUpstream(state);
        lookForLeader();
    }

    /** Advances timers (heartbeats, election and sync timeouts) to {@code nowMs}. */
    public void tick(long nowMs) {
        state.nowMs = Math.max(state.nowMs, nowMs);
        if (leader != null) {
            leader.tick();
        } else if (follower != null) {
            follower.tick();
        } else {
            Election.Decision decision = election.tick();
            if (decision != null) {
                settle(decision);
            }
        }
        checkFailure();
    }

    /** A message from member {@code fromId}. */
    public void receive(long fromId, ZabMessage message) {
        // Any member but ourselves: one outside our configurations may be joining (it follows
        // before a reconfiguration adds it) or know a newer configuration than ours.
        if (message == null || fromId == state.config.myId()) {
            return;
        }
        if (message instanceof ZabMessage.Vote vote) {
            onVote(fromId, vote);
        } else if (leader != null) {
            leader.receive(fromId, message);
        } else if (follower != null && fromId == follower.upstreamId()) {
            follower.receive(message);
        } else if (follower != null && follower.observerMaster() != null
                && follower.observerMaster().receive(fromId, message)) {
            return; // an observer of ours
        } else if (message instanceof ZabMessage.FollowerInfo info) {
            if (follower == null) {
                // still looking: the sender decided on us first; if we lead, we take it up then
                earlyFollowerInfos.put(fromId, info);
            }
            election.answerNotLeading(fromId, follower != null ? follower.epoch() : -1);
        }
        checkFailure();
    }

    private void onVote(long fromId, ZabMessage.Vote vote) {
        if (follower != null && (fromId == follower.leaderId() && wontLeadUs(fromId, vote)
                || fromId == follower.upstreamId() && fromId != follower.leaderId() && masterWontServeUs(vote))) {
            lookForLeader();
        }
        if (leader != null) {
            election.answerWhileSettled(fromId, vote, leader.epoch);
        } else if (follower != null) {
            election.answerWhileSettled(fromId, vote, follower.epoch());
        } else {
            Election.Decision decision = election.onVote(fromId, vote);
            if (decision != null) {
                settle(decision);
            }
        }
    }

    /**
     * True if a vote from the member we follow says it is not, and will not become, our leader.
     * It gave up and started a new round: waiting out initLimit for it could keep us in step with
     * its next attempt's timeout forever (it re-leads at once on our stale backing, we rejoin just
     * as that attempt times out). Or, in the round we followed it in or later, it settled under
     * another leader or votes for another candidate: we decided on a candidate the others passed
     * over, and it will never lead. Older votes are stale and say nothing.
     */
    private boolean wontLeadUs(long leaderId, ZabMessage.Vote vote) {
        if (vote.senderRole() == Role.LOOKING) {
            return vote.round() > election.leaderRound()
                    || vote.round() == election.leaderRound() && vote.leaderId() != leaderId;
        }
        return vote.senderRole() != Role.LEADING && vote.round() >= election.leaderRound();
    }

    /**
     * True if a vote from the observer master we follow says it no longer relays our leader: it
     * looks for a leader, or settled under another one. We move on to another master at once
     * instead of waiting out syncLimit. (A settled vote naming our leader says nothing: it may
     * be the answer to a vote of ours from the election just finished.)
     */
    private boolean masterWontServeUs(ZabMessage.Vote vote) {
        return vote.senderRole() == Role.LOOKING || vote.leaderId() != follower.leaderId();
    }

    private void settle(Election.Decision decision) {
        // a copy in arrival order: Map.copyOf would iterate in an order that differs from one JVM
        // to the next, and the messages this sends would then too (a seed would not replay)
        Map<Long, ZabMessage.FollowerInfo> early = new LinkedHashMap<>(earlyFollowerInfos);
        earlyFollowerInfos.clear();
        if (decision.role() == Role.LEADING) {
            leader = new LeaderSide(state, side -> side == leader);
            // members that settled on us before we did sent their FollowerInfo once; without this
            // they would wait out initLimit. One that has since moved on ignores our LeaderInfo.
            early.forEach(leader::receive);
        } else if (decision.role() == Role.OBSERVING) {
            ObserverUpstream.Choice choice = observerUpstream.choose(decision.leaderId());
            follower = new FollowerSide(state, decision.leaderId(), choice.upstreamId(), decision.role(),
                    choice.waitMs());
        } else {
            follower = new FollowerSide(state, decision.leaderId(), decision.leaderId(), decision.role(), 0);
        }
    }

    /**
     * A leader tells {@code peerId}, a member outside its configurations that it has just started
     * linking to (one a reconfiguration is about to add), that it leads: the member, looking for a
     * leader, joins it at once as a non-voting learner instead of at its next vote, an election
     * timeout away. Nothing happens unless this member leads.
     */
    public void announceLeadershipTo(long peerId) {
        if (leader != null && state.role == Role.LEADING && peerId != state.config.myId()) {
            election.announceTo(peerId, leader.epoch);
        }
    }

    /** The channel to {@code peerId} broke; messages to and from it may have been lost. */
    public void peerDisconnected(long peerId) {
        if (leader != null) {
            leader.peerDisconnected(peerId);
        } else if (follower != null && follower.upstreamId() == peerId) {
            // our leader, or an observer's master: an observer that follows a master hears
            // nothing from the leader itself, so a link to the leader breaking says nothing to it
            lookForLeader();
        } else if (follower != null) {
            follower.peerDisconnected(peerId);
        }
    }

    private void checkFailure() {
        if (state.takeConfigurationChanged()) {
            onConfigurationCommitted();
        }
        if (leader != null && leader.failed() || follower != null && follower.failed()) {
            lookForLeader();
        }
    }

    /**
     * A new configuration is committed and this member acts on it now. A leader that may no
     * longer lead (removed, made an observer, given weight 0) sends what it committed and steps
     * down; the voters of the new configuration elect a leader among themselves. A follower whose
     * leader may no longer lead, or whose own role changed (voter and observer), looks for a
     * leader again and joins in its new role. Members no longer in the configuration go on
     * following as non-voting learners (as a joining member does before it is added). A leader
     * that stays tells the members that do not follow it yet that it leads ({@link
     * #announceToNewMembers}).
     */
    private void onConfigurationCommitted() {
        long me = state.config.myId();
        if (leader != null) {
            if (!state.membership.mayLead(me)) {
                leader.broadcast.flush();
                lookForLeader();
            } else {
                announceToNewMembers();
            }
        } else if (follower != null) {
            if (!state.membership.mayLead(follower.leaderId()) || follower.roleNoLongerFits()) {
                lookForLeader();
            }
        }
    }

    /**
     * Tells every member of the configuration just committed that has no link with this leader
     * (a member the change added, above all) that it leads. A joiner has been looking since it
     * started, refused by the members until the change was logged, so its votes went nowhere;
     * left alone it would find this leader only at its next vote, up to one and a half election
     * timeouts (6 s with the default tick) later, and until it follows and is synchronized every
     * write needs the acknowledgement of all the other voters instead of a quorum's. Told by the
     * leader under the newer configuration, it joins at once. A member that is down misses the
     * message; one that already follows us has a link and is not told again.
     */
    private void announceToNewMembers() {
        for (long id : state.others()) {
            if (!leader.links.containsKey(id)) {
                election.announceTo(id, leader.epoch);
            }
        }
    }

    private void lookForLeader() {
        leader = null;
        follower = null;
        state.setRole(Role.LOOKING, -1, -1, false);
        election.start();
    }

    /**
     * Leader only, while serving: replicate {@code payload} as zxid {@code zxid}. zxids must be
     * proposed in order: the next counter of the current epoch, or, after the counter reached
     * {@link Zxid#MAX_COUNTER}, counter 1 of the next epoch (the core then moves the ensemble to
     * that epoch before sending it; service continues). Returns false if not a serving leader.
     */
    public boolean propose(long zxid, byte[] payload) {
        if (payload == null) {
            throw new IllegalArgumentException("payload is null");
        }
        return leader != null && leader.established() && leader.broadcast.propose(zxid, payload);
    }

    /**
     * Whether this leader may propose {@code proposed} now: it must be a serving leader, no other
     * configuration change may be logged and uncommitted, and the voters of {@code proposed}
     * connected to it and synchronized (itself included) must be a quorum of {@code proposed},
     * or the change could never commit. The entry that carries it is then proposed like any
     * other ({@link #propose}); it commits only with a quorum of the old configuration and a
     * quorum of the new, and takes effect when it commits.
     */
    public ReconfigCheck checkReconfig(Configuration proposed) {
        if (proposed == null) {
            throw new IllegalArgumentException("proposed configuration is null");
        }
        if (leader == null || !leader.established()) {
            return ReconfigCheck.NOT_LEADER;
        }
        if (state.membership.hasLogged() || leader.broadcast.holdsConfigurationChange()) {
            return ReconfigCheck.IN_PROGRESS;
        }
        return proposed.quorum().containsQuorum(leader.syncedVoters()) ? ReconfigCheck.OK : ReconfigCheck.NO_QUORUM;
    }

    /**
     * A number that changes whenever {@link #configurations()} does: a driver that keeps its links
     * to every member of every known configuration compares it after each batch.
     */
    public long configurationChanges() {
        return state.membership.changes();
    }

    /** The newest configuration this member knows committed, and those logged after it. */
    public Configurations configurations() {
        return state.membership.snapshot();
    }

    /** The zxid the next {@link #propose} must use on a serving leader; -1 on any other member. */
    public long nextZxid() {
        return leader != null && leader.established() ? leader.broadcast.nextZxid() : -1;
    }

    /** Sends application data to the current leader (or delivers it locally on the leader). False if no leader is serving. */
    public boolean sendToLeader(byte[] payload) {
        if (payload == null) {
            throw new IllegalArgumentException("payload is null");
        }
        if (leader != null && leader.established()) {
            state.out.received(new Received(state.config.myId(), payload));
            return true;
        }
        return follower != null && follower.sendToLeader(payload);
    }

    /** Leader only: application data to one follower or observer, ordered with the proposals and commits sent to it. */
    public boolean sendTo(long peerId, byte[] payload) {
        if (payload == null) {
            throw new IllegalArgumentException("payload is null");
        }
        return leader != null && leader.established() && leader.broadcast.sendTo(peerId, payload);
    }

    /**
     * Linearizable sync: {@code token} appears in {@link Ready#syncsDone()} once this member has
     * applied everything the leader had committed when the request reached it, and the leader
     * has confirmed with a quorum round that it was still leader. False if not serving.
     * {@code token} must not be negative: an observer master asks its leader for its observers'
     * syncs under negative tokens of its own.
     */
    public boolean sync(long token) {
        if (token < 0) {
            throw new IllegalArgumentException("sync token " + token + " is negative");
        }
        if (leader != null) {
            return leader.established() && leader.broadcast.sync(token);
        }
        return follower != null && follower.sync(token);
    }

    /**
     * This member's state can no longer be vouched for (its tree digest differs from the leader's
     * at the same zxid): it forgets its whole history ({@link Ready#abandonHistory()}), looks for
     * a leader, takes a copy of its history and vouches for no history until then.
     */
    public void abandonHistory() {
        leader = null;
        follower = null;
        state.setRole(Role.LOOKING, -1, -1, false);
        state.abandonHistory();
        election.start();
    }

    /** True while this member must take a copy of a leader's history before it counts toward a quorum. */
    public boolean isResyncRequired() {
        return state.resyncRequired;
    }

    /**
     * True if this member is a serving leader that heard from a quorum of voters, itself
     * included, within the last {@code windowMs} as of its last tick (observers do not count).
     * A leader steps down once this is false for syncLimit; a driver asks it with a shorter
     * window before deciding anything on the leader's own authority (expiring sessions, say),
     * which a leader out of touch with the others lacks the information for and could not commit.
     */
    public boolean leaderHeardQuorumWithin(long windowMs) {
        return leader != null && leader.established() && leader.heardQuorumWithin(windowMs);
    }

    public Role role() {
        return state.role;
    }

    /**
     * The member this learner syncs from and hears the committed stream from: its leader, or,
     * for an observer with observer masters on, the follower it observes through (ZooKeeper's
     * learner master). -1 unless following or observing.
     */
    public long learnerMasterId() {
        return follower != null ? follower.upstreamId() : -1;
    }

    /**
     * ZooKeeper's setLearnerMaster, on an observer with observer masters on: it leaves the member
     * it syncs from and, once it has found the leader again, syncs from {@code masterId} (if that
     * is still a voter then; otherwise, or if that attempt fails, it goes on with its rotation).
     * Nothing changes if it already syncs from {@code masterId}. False if {@code masterId}
     * cannot be its master (see {@link ObserverUpstream#request}).
     */
    public boolean requestLearnerMaster(long masterId) {
        if (follower != null && follower.upstreamId() == masterId) {
            return observerUpstream.mayBeMaster(masterId);
        }
        if (!observerUpstream.request(masterId)) {
            return false;
        }
        if (follower != null) {
            lookForLeader();
        }
        return true;
    }

    /** Observers synchronized from this follower and following it (observer masters on); 0 otherwise. */
    public int observersServed() {
        return follower != null && follower.observerMaster() != null ? follower.observerMaster().observersServed() : 0;
    }

    /** The leader this member follows or is, or -1. */
    public long leaderId() {
        return state.leaderId;
    }

    public boolean isServing() {
        return state.serving;
    }

    /** Epochs as last handed out for persistence. */
    public EpochState epochs() {
        return state.epochs;
    }

    public long committedZxid() {
        return state.committedZxid;
    }

    /**
     * A serving leader's view of its synced followers (observers acknowledge nothing): for each,
     * the last zxid it has, as far as the leader knows (what it acknowledged, or what its sync
     * brought it to). Empty unless this member is a serving leader. A fresh map, for figures.
     */
    public java.util.Map<Long, Long> followerProgress() {
        return leader != null && leader.established() ? leader.followerProgress() : java.util.Map.of();
    }

    /**
     * The learners linked to this member from their FOLLOWERINFO on, syncing or synced: a leader's,
     * or the observers a follower serves as their master. Empty elsewhere. A fresh set.
     */
    public java.util.Set<Long> learnersLinked() {
        if (leader != null) {
            return java.util.Set.copyOf(leader.links.keySet());
        }
        return follower != null && follower.observerMaster() != null ? follower.observerMaster().linked()
                : java.util.Set.of();
    }

    /** The last zxid in this member's log, as the core counts it. */
    public long lastLoggedZxid() {
        return state.lastLoggedZxid;
    }

    public boolean hasReady() {
        flushLeader();
        return !state.out.isEmpty();
    }

    /** Takes the pending batch of work; call {@link #advance} once it is done. */
    public Ready ready() {
        flushLeader();
        Ready ready = state.out.build();
        state.out = new ReadyBuilder();
        return ready;
    }

    /** Tests only: end every epoch after {@code counter} proposals, so an epoch bump is reachable. */
    void limitCounterForTests(long counter) {
        if (counter < 1 || counter > Zxid.MAX_COUNTER) {
            throw new IllegalArgumentException("counter limit out of range: " + counter);
        }
        state.maxCounter = counter;
    }

    private void flushLeader() {
        if (leader != null) {
            leader.broadcast.flush();
        }
    }

    /** The driver finished {@code ready}: its entries are durable, messages sent, commits applied. */
    public void advance(Ready ready) {
        if (ready == null) {
            throw new IllegalArgumentException("ready is null");
        }
        if (leader != null) {
            leader.afterAdvance(ready);
        } else if (follower != null) {
            follower.afterAdvance(ready);
        }
        checkFailure();
    }
}
