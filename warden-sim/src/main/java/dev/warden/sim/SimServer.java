package dev.warden.sim;

import dev.warden.consensus.Configuration;
import dev.warden.consensus.Configurations;
import dev.warden.consensus.Entry;
import dev.warden.consensus.EpochState;
import dev.warden.consensus.Outbound;
import dev.warden.consensus.Role;
import dev.warden.consensus.RoleChange;
import dev.warden.consensus.SnapshotData;
import dev.warden.consensus.ZabConfig;
import dev.warden.consensus.ZabMessage;
import dev.warden.consensus.ZabPeer;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.ReconfigRequest;
import dev.warden.server.peer.PeerSender;
import dev.warden.server.quorum.AppMessage;
import dev.warden.server.quorum.CommittedEntries;
import dev.warden.server.quorum.DriverEffects;
import dev.warden.server.quorum.LoopEvent;
import dev.warden.server.quorum.MemberLoop;
import dev.warden.server.quorum.ReconfigEntries;
import dev.warden.server.quorum.StartingConfigurations;
import dev.warden.server.quorum.ZabCore;
import dev.warden.state.common.Clock;
import dev.warden.state.pipeline.PendingState;
import dev.warden.state.pipeline.Preparer;
import dev.warden.state.pipeline.Request;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * One simulated server: the production member ({@link MemberLoop}: the Zab core, the leader's
 * prep and the handling of each Ready batch) hosted on a simulated disk, network and clock, as
 * the server's {@code MemberDriver} hosts it on threads, files and sockets. What is simulated is
 * only what a host provides: the log writer ({@link #write}: a batch's entries are written at
 * once and become durable when its fsync finishes, after a latency drawn from the seed, in
 * order), the storage effects (durable on return, as the server's are), the state machine the
 * commits are applied to ({@link TreeMachine}, the server's own), and the start-up recovery
 * ({@link SimRecovery}, the server's rule).
 */
public final class SimServer {
    /** Snapshots the autopurge keeps after each local snapshot: the server's autopurge.snapRetainCount (at least 3). */
    private static final int SNAPSHOTS_RETAINED = 3;
    /** Cycles one step may run while a cycle leaves work for the next (prep proposing, a batch settled). */
    private static final int MAX_CYCLES_PER_STEP = 64;

    /** Where the member's effects go: the network, the clients, the checkers. */
    public interface World {
        void send(long from, long to, ZabMessage message);

        void applied(SimServer member, TreeMachine.Applied applied);

        void refused(SimServer member, SimRequest.Refusal refusal);

        void syncDone(SimServer member, long token);

        void roleChanged(SimServer member, RoleChange change);

        /** The member recorded {@code configuration} as the newest it knows committed. */
        void configurationCommitted(SimServer member, Configuration configuration);
    }

    final long id;
    private final ZabConfig config;
    /** The configuration in the member's start files, until it records a newer committed one on its disk. */
    private final Configuration initialConfiguration;
    private final World world;
    private final RandomGenerator random;
    private final Clock clock;
    private final SnapshotLedger ledger;
    final SimDisk disk = new SimDisk();
    private final SimLogView logView = new SimLogView(disk);
    private final TreeMachine machine;
    private ZabPeer peer;
    private MemberLoop loop;
    private boolean up;
    /** Events for the member's next cycle (deliveries, disconnects, client requests, its prep's chores). */
    private final List<LoopEvent> inbox = new ArrayList<>();
    /** Work for the member's next step: a snapshot for a SNAP, taken "in the background" as the server does. */
    private final List<LoopEvent> nextStep = new ArrayList<>();
    /** Refusals from the leader's prep, delivered once this member applied what preceded them. */
    private final List<AppMessage.Failed> refusals = new ArrayList<>();
    private long nowMs;
    /** The log writer, in place of the server's log thread; its fsync latencies and stalls are the simulation's. */
    final SimLogWriter logWriter;
    /**
     * A fault planted in the production member loop, for checker tests: acknowledgements leave
     * before the fsync of what they promise. Takes effect at the next start ({@code Simulation.breakDriverAckBeforePersist} restarts a member that is up).
     */
    boolean ackBeforePersist;
    /**
     * The recovery rule from before it had to prove continuity ({@link SimRecovery#trusting}), for
     * showing the checkers catch what it got wrong: never a resync.
     */
    boolean trustingRecovery;
    /** How the last start recovered (for the trace). */
    private SimRecovery.Outcome lastRecovery;
    /** Starts that set the history aside and required a resync (data that proved nothing, or a marker). */
    long resyncStarts;
    /** Starts with every snapshot damaged and the log's start gone. */
    long startLostStarts;
    /** Times the core gave up its history while running (the loop's abandonHistory effect). */
    long historiesAbandoned;

    SimServer(long id, ZabConfig config, Configuration initialConfiguration, World world, RandomGenerator random,
              Clock clock, SnapshotLedger ledger) {
        this.id = id;
        this.config = config;
        this.initialConfiguration = initialConfiguration;
        this.world = world;
        this.random = random;
        this.logWriter = new SimLogWriter(disk, random, () -> nowMs, () -> inbox.add(new LoopEvent.LogProgress()));
        this.clock = clock;
        this.ledger = ledger;
        this.machine = new TreeMachine(clock, id);
    }

    public long id() {
        return id;
    }

    public boolean isUp() {
        return up;
    }

    public ZabPeer peer() {
        return peer;
    }

    public TreeMachine machine() {
        return machine;
    }

    public boolean isServing() {
        return up && loop.standing().serving();
    }

    public boolean isServingLeader() {
        return isServing() && loop.standing().role() == Role.LEADING;
    }

    /** Comes up from its disk, as the server does: recovery first, then a member that knows whether it must resync. */
    void start(long startMs) {
        nowMs = startMs;
        lastRecovery = trustingRecovery ? SimRecovery.trusting(disk, machine, Long.MAX_VALUE, ledger)
                : SimRecovery.atStart(disk, machine, ledger);
        if (lastRecovery.resyncRequired()) {
            resyncStarts++;
        }
        if (lastRecovery.startLost()) {
            startLostStarts++;
        }
        inbox.clear();
        nextStep.clear();
        logWriter.clear();
        refusals.clear();
        logView.reset();
        // as the server finds them: the recorded committed one, and the changes its log holds after it
        Configuration recorded = disk.committedConfiguration() != null ? disk.committedConfiguration()
                : initialConfiguration;
        Configurations configurations = StartingConfigurations.find(recorded, machine.tree(), logView);
        peer = new ZabPeer(config, disk.epochs(), logView, new StepLaterSnapshots(machine, ledger, nextStep), random, startMs,
                lastRecovery.resyncRequired(), configurations, ReconfigEntries.INSTANCE);
        // the leader's prep works on this member's own state, as on a server
        PendingState pending = new PendingState(machine.tree());
        Preparer preparer = new Preparer(pending, machine.state().sessions(), clock, random, false, 0);
        loop = new MemberLoop(id, new ZabCore(peer), sender, effects, logWriter,
                new MemberLoop.PrepState(preparer, pending, machine.state().sessions(), machine.tree(), true),
                task -> inbox.add(new LoopEvent.Chore(task)), logView::lastZxid, clock, ackBeforePersist);
        up = true;
    }

    /**
     * An operator's reconfig, handed to this member's leader prep as the leader's own request:
     * validated and proposed as a client's would be (the client path is the server's, tested
     * with real members); ignored unless this member is the serving leader.
     */
    void reconfigure(ReconfigRequest request) {
        if (up) {
            inbox.add(new LoopEvent.Chore(() -> loop.prepareHousekeeping(
                    new Request(null, 0, 0, OpCode.RECONFIG, request))));
        }
    }

    /** What the last start decided, for the trace. */
    String recoveryDescription() {
        return lastRecovery == null ? "not started" : lastRecovery.description();
    }

    /** The member gives up its history at run time (as on a digest that differs from the quorum's). */
    void abandonHistory() {
        if (up) {
            inbox.add(new LoopEvent.Chore(loop::abandonHistory));
        }
    }

    void crash() {
        crash(true);
    }

    void crash(boolean tornTail) {
        up = false;
        loop = null;
        peer = null;
        inbox.clear();
        nextStep.clear();
        logWriter.clear();
        refusals.clear();
        disk.crash(random, tornTail);
    }

    void deliver(long from, ZabMessage message) {
        if (up) {
            inbox.add(new LoopEvent.PeerMessage(from, message));
        }
    }

    void disconnected(long peerId) {
        if (up) {
            inbox.add(new LoopEvent.PeerDown(peerId));
        }
    }

    /** One step: finishes the fsyncs that are due, then runs the member's cycles until it has nothing left to do. */
    void pump(long stepMs) {
        if (!up) {
            return;
        }
        nowMs = stepMs;
        inbox.addAll(nextStep);
        nextStep.clear();
        logWriter.finishDue();
        for (int cycles = 0; cycles < MAX_CYCLES_PER_STEP && up; cycles++) {
            List<LoopEvent> events = new ArrayList<>(inbox);
            inbox.clear();
            try {
                loop.cycle(nowMs, events);
            } catch (java.io.IOException e) {
                throw new IllegalStateException("member " + id + ": the simulated disk failed", e);
            }
            logWriter.finishDue();
            if (inbox.isEmpty() && !loop.hasOwnEvents()) {
                return;
            }
        }
    }

    private final PeerSender sender = new PeerSender() {
        @Override
        public void send(long to, ZabMessage message) {
            world.send(id, to, message);
        }

        @Override
        public void sendAll(List<Outbound> messages) {
            for (Outbound out : messages) {
                world.send(id, out.to(), out.message());
            }
        }
    };

    /** What the member loop asks of the rest of a server, on the simulated disk and state. */
    private final DriverEffects effects = new DriverEffects() {
        @Override
        public void roleChanged(RoleChange change, long nextZxid) {
            world.roleChanged(SimServer.this, change);
        }

        @Override
        public void saveEpochs(EpochState epochs) {
            disk.writeEpochs(epochs);
            disk.fsync();
        }

        @Override
        public void truncateAfter(long zxid) {
            disk.truncateAfter(zxid);
            disk.fsync();
            if (machine.lastZxid() != zxid) {
                // as the server's rebuild: the state ends exactly at the TRUNC point
                if (trustingRecovery) {
                    SimRecovery.trusting(disk, machine, zxid, ledger);
                } else {
                    SimRecovery.afterTruncation(disk, machine, ledger);
                }
            }
            logView.reset();
        }

        @Override
        public void installSnapshot(SnapshotData snapshot) {
            machine.restore(snapshot, ledger);
            disk.installSnapshot(snapshot);
            disk.fsync();
            logView.reset();
        }

        @Override
        public void abandonHistory() {
            // the marker first, then the log (it starts again at 0) and the snapshots; the state empties
            disk.setAsideHistory();
            disk.fsync();
            machine.clear();
            logView.reset();
            historiesAbandoned++;
        }

        @Override
        public void resynced() {
            disk.removeResyncMarker();
            disk.fsync();
        }

        @Override
        public void configurationCommitted(Configuration configuration) {
            disk.writeCommittedConfiguration(configuration);
            disk.fsync();
            world.configurationCommitted(SimServer.this, configuration);
        }

        @Override
        public void configurationsChanged(Configurations configurations) {
            // the simulated network reaches every member by id: no links to make or drop
        }

        @Override
        public void persist(List<Entry> entries) {
            for (Entry entry : entries) {
                disk.append(entry);
            }
            disk.fsync();
        }

        @Override
        public void logged(List<Entry> entries) {
            if (!entries.isEmpty()) {
                logView.published(entries.get(entries.size() - 1).zxid());
            }
        }

        @Override
        public void committed(CommittedEntries entries) {
            for (int i = 0; i < entries.size(); i++) {
                Entry entry = entries.entries().get(i);
                TreeMachine.Applied applied = machine.apply(entry, entries.txn(i));
                entries.applied(i);
                loop.applied(entry.zxid());
                world.applied(SimServer.this, applied);
            }
            deliverRefusals();
        }

        @Override
        public void memberMessage(long from, AppMessage message) {
            if (message instanceof AppMessage.Failed failed) {
                refusals.add(failed);
                deliverRefusals();
            }
            // session activity and digests: the simulation has no session expiry and no tree check
        }

        @Override
        public void syncsDone(List<Long> tokens) {
            for (long token : tokens) {
                world.syncDone(SimServer.this, token);
            }
        }

        @Override
        public void syncRefused(long token) {
            // the client's sync times out and it fails over
        }

        @Override
        public void failed(String reason, Throwable cause) {
            throw new IllegalStateException("member " + id + " failed: " + reason, cause);
        }
    };

    /** Refusals whose place in the session's order has come: everything prepared before them is applied here. */
    private void deliverRefusals() {
        Iterator<AppMessage.Failed> pending = refusals.iterator();
        while (pending.hasNext()) {
            AppMessage.Failed failed = pending.next();
            if (failed.afterZxid() <= machine.lastZxid()) {
                pending.remove();
                world.refused(this, SimRequest.Refusal.of(failed));
            }
        }
    }

    /** A client's linearizable sync: false if this member cannot serve. */
    boolean sync(long token) {
        if (!isServing()) {
            return false;
        }
        inbox.add(new LoopEvent.Sync(token));
        return true;
    }

    /** A client request arrived at this member: it forwards it to the leader. False if this member cannot serve. */
    boolean submit(SimRequest request) {
        if (!isServing()) {
            return false;
        }
        inbox.add(new LoopEvent.ToLeader(request.forward()));
        return true;
    }

    /** A client with a session reconnected here: the member tells the leader its requests now come from here. */
    void attach(long sessionId) {
        if (isServing()) {
            inbox.add(new LoopEvent.ToLeader(new AppMessage.Attach(id, sessionId)));
        }
    }

    /**
     * Takes a snapshot of committed state, when that is possible right now, as the server does
     * (the log rolls, the snapshot file is written), then runs the autopurge: the newest
     * {@link #SNAPSHOTS_RETAINED} snapshots stay, with the log needed to replay the oldest of them.
     */
    void purge() {
        SnapshotFile newest = disk.newestSnapshot();
        if (isServing() && logWriter.isIdle() && !loop.hasBatchesInFlight() && !disk.hasUnsynced()
                && machine.lastZxid() == peer.committedZxid()
                && machine.lastZxid() > (newest == null ? 0 : newest.zxid())) {
            disk.takeSnapshot(machine.snapshot(ledger));
            disk.autopurge(SNAPSHOTS_RETAINED);
            disk.fsync();
        }
    }
}
