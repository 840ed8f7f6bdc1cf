package dev.warden.server.quorum;

import dev.warden.consensus.Configurations;
import dev.warden.consensus.Entry;
import dev.warden.consensus.Outbound;
import dev.warden.consensus.Ready;
import dev.warden.consensus.Role;
import dev.warden.consensus.RoleChange;
import dev.warden.consensus.ZabMessage;
import dev.warden.server.peer.PeerSender;
import dev.warden.state.common.Clock;
import dev.warden.state.pipeline.PendingState;
import dev.warden.state.pipeline.Preparer;
import dev.warden.state.pipeline.Request;
import dev.warden.state.session.SessionTracker;
import dev.warden.state.tree.DataTree;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.function.LongSupplier;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One ensemble member's logic, single-threaded and deterministic: the Zab core, the leader's
 * prep and the handling of each Ready batch, in the order that keeps every promise (persist
 * before acknowledging, commit only what this member's own log holds, each peer's messages in
 * the order the core queued them). It owns no thread, socket, file or clock: a host feeds it
 * events and the time ({@link #cycle}), and it acts through small interfaces: the network
 * ({@link PeerSender}), the log's writer ({@link LogDisk}), and the rest of the member
 * ({@link DriverEffects}). The server's host is {@link MemberDriver} (an event-loop thread, a log
 * thread, TCP links); the simulator drives this same class with a simulated disk and network.
 *
 * <p>A cycle takes the events, ticks the core, feeds it the events and performs every Ready it hands
 * out. A Ready that only appends entries goes to the log writer, and what it promises waits in a
 * {@link LogBatch} until the writer reports the batch durable (a later cycle, on a {@link
 * LoopEvent.LogProgress} event; the same cycle when the writer wrote it at once, see {@link
 * LogDisk#writesNextAtOnce}): its acknowledgements, any later message to a peer that already has one
 * waiting, and, in the order the core handed the batches out, its commits (with what the leader's
 * prep kept for its own entries, {@link CommittedEntries}), finished syncs and the core's {@code
 * advance}. A Ready that changes the role, the epochs or the log's start waits until no batch is in
 * flight; meanwhile the loop settles finished batches and keeps what arrives for later, feeding the
 * core nothing.
 *
 * <p>The leader's prep ({@link LeaderPrep}) runs here too: a forwarded request is prepared in the
 * cycle that received it and proposed in the next, which follows at once.
 */
public final class MemberLoop {
    private static final Logger log = LoggerFactory.getLogger(MemberLoop.class);

    /** The log's writer: appends and fsyncs batches, off the loop's thread unless the disk is idle. */
    public interface LogDisk {
        /**
         * Appends the batch's entries after those of every batch submitted before it and makes
         * them durable, then marks it {@link LogBatch#durable()} (or {@link LogBatch#failed}),
         * and the host feeds the loop a {@link LoopEvent.LogProgress}. Does not block, unless
         * {@link #writesNextAtOnce()} just said it would write this batch at once.
         */
        void submit(LogBatch batch);

        /**
         * Asked just before each {@link #submit}: true if the disk is idle and will write the next
         * batch on the caller's thread, so it is durable (or failed) when {@code submit} returns.
         * The loop then sends what need not wait for the disk first, and settles the batch in the
         * same cycle instead of a later one.
         */
        default boolean writesNextAtOnce() {
            return false;
        }
    }

    /**
     * The state the leader's prep validates against, which the rest of the member applies to,
     * whether it takes reconfig requests (reconfigEnabled) and member lines with several addresses
     * in them (multiAddress.enabled), and how long a reconfig waits to hear from the members it
     * adds and for them to synchronize ({@link JoinerReach}).
     */
    public record PrepState(Preparer preparer, PendingState pending, SessionTracker sessions, DataTree tree,
                            boolean reconfigEnabled, boolean multiAddressEnabled, long joinerContactMs,
                            long joinerSyncMs) {
        /**
         * Without multi-address member lines or timing of its own: a reconfig waits up to 1 s to
         * hear from the members it adds and 10 s for them to synchronize ({@link JoinerReach}).
         */
        public PrepState(Preparer preparer, PendingState pending, SessionTracker sessions, DataTree tree,
                         boolean reconfigEnabled) {
            this(preparer, pending, sessions, tree, reconfigEnabled, false, JoinerReach.MIN_CONTACT_WAIT_MS, 10_000);
        }
    }

    /** Most batches at the log writer at once; its queue holds no more. */
    public static final int MAX_BATCHES_IN_FLIGHT = 256;

    private final long myId;
    private final ConsensusCore core;
    private final LoopPeerOutput peers;
    private final DriverEffects effects;
    private final LogDisk disk;
    private final LeaderPrep prep;
    private final MemberTrafficRouter traffic;
    private final LeaderReconfig reconfig;
    /** The last zxid in this member's log view: where a new leader's tree must reach before prep validates. */
    private final LongSupplier logLastZxid;
    private final Clock clock;
    /**
     * A fault planted on purpose, for the simulator's checker tests only: acknowledgements leave
     * before the entries they promise are durable. Never set in a server.
     */
    private final boolean acknowledgeBeforeFsync;
    private final ArrayDeque<LoopEvent> ownEvents = new ArrayDeque<>();
    /** Events that arrived while a reset waited for the batches in flight, in arrival order. */
    private final List<LoopEvent> waitingEvents = new ArrayList<>();
    private final BatchesInFlight inFlight = new BatchesInFlight();
    private final PeersHeard peersHeard = new PeersHeard();
    private final MemberLoopFigures figures = new MemberLoopFigures();
    /** The learner master last logged (driver thread). */
    private long learnerMasterLogged = -1;
    /** A Ready that resets state, taken from the core, waiting until no batch is in flight. */
    private Ready waitingReset;
    private volatile MemberStanding standing = MemberStanding.INITIAL;
    /** The last role change acted on. */
    private RoleChange lastChange;
    /** The core's configuration change count when the member was last told. */
    private long configurationChangesSeen = -1;
    /** Whether every configuration known had this member alone in it, as of the core's change count aloneCheckedAt. */
    private boolean alone;
    private long aloneCheckedAt = -1;

    /**
     * @param toLoop       runs a task on the loop's thread, from any thread (the prep's caller on
     *                     the apply thread uses it); the host feeds it as a {@link LoopEvent.Chore}
     * @param logLastZxid  the last zxid of this member's log as the core sees it
     * @param clock        the wall clock a role change is stamped with (the standing's election time)
     */
    public MemberLoop(long myId, ConsensusCore core, PeerSender sender, DriverEffects effects, LogDisk disk,
                      PrepState prepState, Executor toLoop, LongSupplier logLastZxid, Clock clock) {
        this(myId, core, sender, effects, disk, prepState, toLoop, logLastZxid, clock, false);
    }

    /** As above; {@code acknowledgeBeforeFsync} breaks durability on purpose (simulator checker tests). */
    public MemberLoop(long myId, ConsensusCore core, PeerSender sender, DriverEffects effects, LogDisk disk,
                      PrepState prepState, Executor toLoop, LongSupplier logLastZxid, Clock clock,
                      boolean acknowledgeBeforeFsync) {
        this.myId = myId;
        this.clock = clock;
        this.core = core;
        this.peers = new LoopPeerOutput(myId, sender, figures);
        this.effects = effects;
        this.disk = disk;
        this.logLastZxid = logLastZxid;
        this.acknowledgeBeforeFsync = acknowledgeBeforeFsync;
        this.reconfig = new LeaderReconfig(core, prepState.tree(), prepState.reconfigEnabled(),
                prepState.multiAddressEnabled());
        prepState.preparer().reconfigurer(reconfig);
        JoinerReach joinerReach = new JoinerReach(core, reconfig, effects::reachJoiners, peersHeard::within,
                prepState.joinerContactMs(), prepState.joinerSyncMs());
        this.prep = new LeaderPrep(prepState.preparer(), prepState.pending(), prepState.sessions(), prepState.tree(),
                new LoopPrepOutput(myId, ownEvents::add, effects, toLoop), joinerReach);
        this.traffic = new MemberTrafficRouter(myId, prep, effects);
    }

    // ---- on the loop's thread ---------------------------------------------------------------

    /** Queues an event for the next cycle (the loop's own thread only). */
    public void offer(LoopEvent event) {
        ownEvents.add(event);
    }

    /** True if events the loop gave itself wait for a cycle. */
    public boolean hasOwnEvents() {
        return !ownEvents.isEmpty();
    }

    /** The leader's own housekeeping (session expiry, container reaping): prepared if this member leads. */
    public void prepareHousekeeping(Request request) {
        prep.internal(request);
    }

    /** True if this member is a serving leader that heard from a quorum within {@code windowMs}. */
    public boolean leaderHeardQuorumWithin(long windowMs) {
        return core.leaderHeardQuorumWithin(windowMs);
    }

    /** The state can no longer be vouched for: the core gives up its history (unless it already did). */
    public void abandonHistory() {
        if (!core.isResyncRequired()) {
            core.abandonHistory();
        }
    }

    /**
     * One duty cycle at {@code nowMs}: the events given and those the loop gave itself, a tick,
     * the events fed to the core in order, then every Ready performed.
     *
     * @throws IOException when the log or the epochs cannot be written: the member must stop
     *                     (nothing more is acknowledged)
     */
    public void cycle(long nowMs, List<LoopEvent> events) throws IOException {
        peersHeard.cycleAt(nowMs);
        waitingEvents.addAll(ownEvents);
        ownEvents.clear();
        waitingEvents.addAll(events);
        settleDurableBatches();
        if (!performWaitingReset()) {
            return;
        }
        List<LoopEvent> now = new ArrayList<>(waitingEvents);
        waitingEvents.clear();
        core.tick(nowMs);
        prep.releaseWaiting(nowMs);
        figures.publishIfDue(nowMs, core, inFlight.size());
        noteLearnerMaster();
        for (LoopEvent event : now) {
            feed(event);
        }
        settleDurableBatches();
        performReadies();
        long changes = core.configurationChanges();
        if (changes != configurationChangesSeen) {
            configurationChangesSeen = changes;
            effects.configurationsChanged(core.configurations());
        }
    }

    /**
     * Loop's thread: true while this member leads an ensemble of itself alone, so no peer waits
     * on the loop's thread for pings or proposals (a host may then write the log on it).
     */
    public boolean leadsAlone() {
        boolean leading = standing.role() == Role.LEADING;
        if (leading && core.configurationChanges() != aloneCheckedAt) {
            aloneCheckedAt = core.configurationChanges();
            Configurations known = core.configurations();
            alone = Stream.concat(Stream.of(known.committed()), known.logged().stream())
                    .allMatch(c -> c.quorum().voters().equals(Set.of(myId)) && c.quorum().observers().isEmpty());
        }
        return leading && alone;
    }

    /** Performs the waiting reset once nothing is in flight; false while it still waits. */
    private boolean performWaitingReset() throws IOException {
        if (waitingReset == null || !inFlight.isEmpty()) {
            return waitingReset == null;
        }
        Ready ready = waitingReset;
        waitingReset = null;
        performInOrder(ready);
        return true;
    }

    /**
     * Performs the core's Ready batches. With {@link #MAX_BATCHES_IN_FLIGHT} batches at the log
     * writer it takes no more: the core keeps gathering work into its next batch, which goes to
     * the disk in one piece once a batch is durable, so the writer's queue is bounded and a slow
     * disk slows the member down instead of growing its memory.
     */
    private void performReadies() throws IOException {
        while (waitingReset == null && inFlight.size() < MAX_BATCHES_IN_FLIGHT && core.hasReady()) {
            perform(core.ready());
            settleDurableBatches(); // a batch written at once: its commits may make the next Ready
        }
    }

    private void feed(LoopEvent event) {
        if (event instanceof LoopEvent.PeerMessage m) {
            peersHeard.heardFrom(m.from());
            if (m.message() instanceof ZabMessage.Propose propose && standing.role() != Role.LEADING) {
                figures.learnerProposalsReceived(propose.entries().size());
            }
            core.receive(m.from(), m.message());
        } else if (event instanceof LoopEvent.PeerDown d) {
            core.peerDisconnected(d.peerId());
        } else if (event instanceof LoopEvent.Propose p) {
            if (core.propose(p.zxid(), p.payload())) {
                figures.proposed();
            } else {
                log.debug("proposal {} refused: no longer a serving leader", Long.toHexString(p.zxid()));
            }
        } else if (event instanceof LoopEvent.ToLeader t) {
            if (core.nextZxid() >= 0) { // a serving leader: this member's own traffic, never encoded
                traffic.deliver(myId, t.message());
            } else if (!core.sendToLeader(AppMessage.encode(t.message()))) {
                log.debug("no serving leader for a forwarded message");
            }
        } else if (event instanceof LoopEvent.ToMember t) {
            core.sendTo(t.peerId(), t.payload());
        } else if (event instanceof LoopEvent.Chore c) {
            c.body().run();
        } else if (event instanceof LoopEvent.Sync s) {
            if (!core.sync(s.token())) {
                effects.syncRefused(s.token());
            }
        }
        // LogProgress: the batches it announces are settled before and after feeding
    }

    /**
     * Performs one Ready. One that resets state waits until no batch is in flight; one that only
     * appends entries (and sends, commits, delivers) hands them to the log writer and returns,
     * leaving what they promise in a {@link LogBatch}.
     */
    private void perform(Ready ready) throws IOException {
        if (ready.resetsState()) {
            if (!inFlight.isEmpty()) {
                waitingReset = ready;
                return;
            }
            performInOrder(ready);
            return;
        }
        if (inFlight.isEmpty() && ready.entriesToPersist().isEmpty()) {
            performInOrder(ready);
            return;
        }
        List<Outbound> sendNow = inFlight.sendableNow(ready.sendImmediately());
        if (ready.entriesToPersist().isEmpty()) {
            peers.send(sendNow);
        } else if (disk.writesNextAtOnce()) {
            // The proposals first, so the followers' fsyncs run while this thread does its own.
            peers.send(sendNow);
            disk.submit(inFlight.add(ready.entriesToPersist()));
        } else {
            // The disk first: a leader's fsync then overlaps the writes of its proposals to the
            // peers instead of starting after them, and is more often done before their
            // acknowledgements come back (then its followers may commit on LeaderDurable).
            disk.submit(inFlight.add(ready.entriesToPersist()));
            peers.send(sendNow);
        }
        if (acknowledgeBeforeFsync) {
            peers.send(inFlight.sendableNow(ready.sendAfterPersist()));
        } else {
            for (Outbound message : ready.sendAfterPersist()) {
                inFlight.hold(message);
            }
        }
        // Delivered now: what members tell each other does not depend on local durability, and a
        // leader's forwarded requests are prepared while the log is written.
        traffic.deliver(ready.received());
        inFlight.newest().settleWhenDurable.add(ready);
    }

    /**
     * For each batch the log writer finished, oldest first: its entries become part of the log's
     * view, the messages held for it leave, and the Ready batches waiting on it commit, complete
     * their syncs and advance the core, in the order the core handed them out.
     */
    private void settleDurableBatches() throws IOException {
        LogBatch batch;
        while ((batch = inFlight.pollDurable()) != null) {
            effects.logged(batch.entries());
            peers.send(batch.sendsWhenDurable);
            for (Ready ready : batch.settleWhenDurable) {
                commit(ready.committed());
                if (!ready.syncsDone().isEmpty()) {
                    effects.syncsDone(ready.syncsDone());
                }
                if (ready.resynced()) {
                    // the core marks it with the role change that makes the member serve, which
                    // goes through performInOrder; handled here too, so the marker never stays
                    effects.resynced();
                }
                if (ready.configurationCommitted() != null) {
                    effects.configurationCommitted(ready.configurationCommitted());
                }
                core.advance(ready);
            }
        }
    }

    /** Hands committed entries to the apply thread, with what the leader's prep kept for its own. */
    private void commit(List<Entry> committed) {
        if (!committed.isEmpty()) {
            figures.committed(standing.role() == Role.LEADING, committed.size());
            effects.committed(prep.committed(committed));
        }
    }

    /** Performs one Ready batch in the order {@link Ready} documents, then advances the core. */
    private void performInOrder(Ready ready) throws IOException {
        if (ready.roleChange() != null) {
            changeRole(ready.roleChange());
        }
        peers.send(ready.sendImmediately());
        if (acknowledgeBeforeFsync) {
            peers.send(ready.sendAfterPersist());
        }
        if (ready.abandonHistory()) {
            effects.abandonHistory();
        }
        if (ready.epochs() != null) {
            effects.saveEpochs(ready.epochs());
        }
        if (ready.truncateAfterZxid() >= 0) {
            effects.truncateAfter(ready.truncateAfterZxid());
        }
        if (ready.snapshot() != null) {
            effects.installSnapshot(ready.snapshot());
        }
        if (!ready.entriesToPersist().isEmpty()) {
            effects.persist(ready.entriesToPersist());
            effects.logged(ready.entriesToPersist());
        }
        if (!acknowledgeBeforeFsync) {
            peers.send(ready.sendAfterPersist());
        }
        commit(ready.committed());
        traffic.deliver(ready.received());
        if (!ready.syncsDone().isEmpty()) {
            effects.syncsDone(ready.syncsDone());
        }
        if (ready.resynced()) {
            effects.resynced();
        }
        if (ready.configurationCommitted() != null) {
            effects.configurationCommitted(ready.configurationCommitted());
        }
        core.advance(ready);
    }

    private void changeRole(RoleChange change) {
        standing = standing.after(change.role(), change.leaderId(), change.epoch(), change.serving(),
                clock.wallTimeMs());
        boolean leads = change.role() == Role.LEADING && change.serving();
        long nextZxid = leads ? core.nextZxid() : -1;
        RoleChange previous = lastChange;
        lastChange = change;
        boolean epochOnly = previous != null && previous.role() == change.role()
                && previous.leaderId() == change.leaderId() && previous.serving() == change.serving();
        effects.roleChanged(change, nextZxid);
        if (epochOnly) {
            return; // the leader's zxid counter ran out: same leader, prep keeps its zxid sequence
        }
        reconfig.reset();
        if (leads) {
            prep.lead(nextZxid, logLastZxid.getAsLong());
        } else {
            prep.follow();
        }
    }

    // ---- any thread ---------------------------------------------------------------------------

    /** Apply thread: {@code zxid} is applied (a new leader's prep waits for its whole log to be). */
    public void applied(long zxid) {
        prep.applied(zxid);
    }

    /** Role, leader, serving and epoch as of one moment, for readers on any thread. */
    public MemberStanding standing() {
        return standing;
    }

    /**
     * The loop's figures for readers on any thread: transactions and syncs counted, and what it
     * publishes every {@link MemberLoopFigures#FOLLOWER_LAG_PERIOD_MS} (followers' lag, batches
     * with the log writer, the learner master and the learners linked).
     */
    MemberLoopFigures figures() {
        return figures;
    }

    /** The host stopped the loop (it failed, or the member closes): it serves no longer. */
    public void stopServing() {
        standing = standing.notServing();
    }

    /**
     * Logs the observer master an observer follows when it takes one, so the log says which
     * member an observer syncs from (its figures say it too: {@link MemberLoopFigures#learnerMasterId()}).
     */
    private void noteLearnerMaster() {
        long master = core.learnerMasterId();
        if (master != learnerMasterLogged) {
            learnerMasterLogged = master;
            if (master >= 0 && core.role() == Role.OBSERVING && master != core.leaderId()) {
                log.info("member {}: observing leader {} through observer master {}", myId, core.leaderId(), master);
            }
        }
    }

    /** Driver thread: an observer syncs from {@code memberId} from its next attempt on (see ConsensusCore). */
    public void requestLearnerMaster(long memberId) {
        core.requestLearnerMaster(memberId);
    }

    /** Peers heard from within the last {@code windowMs}, for the leader's admin figures; any thread. */
    public Set<Long> peersHeardWithin(long windowMs) {
        return peersHeard.within(windowMs);
    }

    /** True while batches are with the log writer; a host that closes waits for them. */
    public boolean hasBatchesInFlight() {
        return !inFlight.isEmpty();
    }
}
