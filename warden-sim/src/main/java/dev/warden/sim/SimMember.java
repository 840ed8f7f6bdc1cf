package dev.warden.sim;

import dev.warden.consensus.Entry;
import dev.warden.consensus.Outbound;
import dev.warden.consensus.Ready;
import dev.warden.consensus.Received;
import dev.warden.consensus.Role;
import dev.warden.consensus.RoleChange;
import dev.warden.consensus.ZabConfig;
import dev.warden.consensus.ZabMessage;
import dev.warden.consensus.ZabPeer;
import dev.warden.server.Clock;
import dev.warden.server.txn.Txn;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * One simulated server: a ZabPeer, its disk and state machine, and a driver that performs each
 * Ready in the documented order. A slow fsync stalls the member (messages wait in its inbox) like
 * a server whose sync thread blocks. The state machine is the server's own (tree and sessions,
 * {@link TreeMachine}); as leader the member preps client requests with the server's preparer
 * ({@link SimPrep}) and proposes the encoded transactions. It starts, and rebuilds after a TRUNC,
 * with the server's recovery rule ({@link SimRecovery}); a member whose data proves no state, or
 * whose core gives up its history, sets it aside behind a resync marker and takes a copy.
 */
public final class SimMember {
    /** Snapshots the autopurge keeps after each local snapshot: the server's autopurge.snapRetainCount (at least 3). */
    private static final int SNAPSHOTS_RETAINED = 3;

    /** Where the member's effects go: the network, the clients, the checkers. */
    public interface World {
        void send(long from, long to, ZabMessage message);

        void applied(SimMember member, TreeMachine.Applied applied);

        void refused(SimMember member, SimRequest.Refusal refusal);

        void syncDone(SimMember member, long token);

        void roleChanged(SimMember member, RoleChange change);
    }

    final long id;
    private final ZabConfig config;
    private final World world;
    private final RandomGenerator random;
    private final Clock clock;
    private final SnapshotLedger ledger;
    final SimDisk disk = new SimDisk();
    private TreeMachine machine;
    private SimPrep prep;
    private ZabPeer peer;
    private boolean up;
    private Ready inFlight;
    private long fsyncDoneAtMs;
    private final Deque<Object> inbox = new ArrayDeque<>();
    /** Batches whose fsync had to wait for a slow disk. */
    long slowFsyncs;
    /** Maximum extra fsync latency; 0 means fsync completes at once. */
    long slowDiskMaxMs;
    /** Scripted scenarios: batches that write to disk never finish their fsync until this is cleared. */
    boolean diskStalled;
    /**
     * A deliberately broken driver for checker tests: acknowledgements leave before the fsync,
     * in either way of driving the core.
     */
    boolean ackBeforePersist;
    /**
     * Drives the core as the server's MemberDriver does with its log thread: a batch that only
     * appends leaves its fsync in flight while the member goes on taking messages and batches.
     */
    boolean pipelined;
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
    /** Times the core gave up its history while running ({@link Ready#abandonHistory()}). */
    long historiesAbandoned;
    /** Pipelined: batches whose fsync is in flight, oldest first; they finish in order. */
    private final Deque<PipelinedBatch> batches = new ArrayDeque<>();
    /** Pipelined: messages per peer held in {@link #batches}; later ones to that peer queue behind them. */
    private final Map<Long, Integer> heldByPeer = new HashMap<>();
    /** Pipelined: a batch that resets role, epochs or log, taken but waiting until no fsync is in flight. */
    private Ready waitingReset;

    /** Entries written and fsynced when the batch finishes, and what waits for that. */
    private static final class PipelinedBatch {
        final List<Entry> entries;
        final long doneAtMs;
        final List<Outbound> held = new ArrayList<>();
        final List<Ready> settle = new ArrayList<>();

        PipelinedBatch(List<Entry> entries, long doneAtMs) {
            this.entries = entries;
            this.doneAtMs = doneAtMs;
        }
    }

    private record Disconnect(long peer) { }

    private record Delivery(long from, ZabMessage message) { }

    SimMember(long id, ZabConfig config, World world, RandomGenerator random, Clock clock, SnapshotLedger ledger) {
        this.id = id;
        this.config = config;
        this.world = world;
        this.random = random;
        this.clock = clock;
        this.ledger = ledger;
        this.machine = TreeMachine.empty(clock, id);
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
        return up && peer.isServing();
    }

    public boolean isServingLeader() {
        return isServing() && peer.role() == Role.LEADING;
    }

    /** Comes up from its disk, as the server does: recovery first, then a core that knows whether it must resync. */
    void start(long nowMs) {
        lastRecovery = trustingRecovery ? SimRecovery.trusting(disk, Long.MAX_VALUE, ledger, clock, id)
                : SimRecovery.atStart(disk, ledger, clock, id);
        machine = lastRecovery.machine();
        if (lastRecovery.resyncRequired()) {
            resyncStarts++;
        }
        if (lastRecovery.startLost()) {
            startLostStarts++;
        }
        prep = null;
        inbox.clear();
        inFlight = null;
        clearPipeline();
        peer = new ZabPeer(config, disk.epochs(), disk, () -> machine.snapshot(ledger), random, nowMs,
                lastRecovery.resyncRequired());
        up = true;
    }

    /** What the last start decided, for the trace. */
    String recoveryDescription() {
        return lastRecovery == null ? "not started" : lastRecovery.description();
    }

    /** The core gives up its history at run time (as on a digest that differs from the leader's). */
    void abandonHistory() {
        if (up) {
            peer.abandonHistory();
        }
    }

    void crash() {
        crash(true);
    }

    void crash(boolean tornTail) {
        up = false;
        inFlight = null;
        clearPipeline();
        inbox.clear();
        peer = null;
        prep = null;
        disk.crash(random, tornTail);
    }

    void deliver(long from, ZabMessage message) {
        if (up) {
            inbox.add(new Delivery(from, message));
        }
    }

    void disconnected(long peerId) {
        if (up) {
            inbox.add(new Disconnect(peerId));
        }
    }

    private void clearPipeline() {
        batches.clear();
        heldByPeer.clear();
        waitingReset = null;
    }

    /** Runs the member until it waits on its disk or has nothing to do. */
    void pump(long nowMs) {
        if (!up) {
            return;
        }
        if (pipelined) {
            pumpPipelined(nowMs);
            return;
        }
        if (!finishSlowFsync(nowMs)) {
            return;
        }
        peer.tick(nowMs);
        while (feedUntilReady()) {
            if (performInOrder(peer.ready(), nowMs)) {
                return;
            }
        }
    }

    /** False while a batch still waits for its slow or stalled fsync; finishes it once it is done. */
    private boolean finishSlowFsync(long nowMs) {
        if (inFlight != null) {
            if (nowMs < fsyncDoneAtMs || diskStalled) {
                return false;
            }
            finish(inFlight);
        }
        return true;
    }

    /** Feeds the core queued messages until it has a batch ready; false if the inbox ran dry first. */
    private boolean feedUntilReady() {
        while (!inbox.isEmpty() && !peer.hasReady()) {
            Object next = inbox.poll();
            if (next instanceof Delivery d) {
                peer.receive(d.from(), d.message());
            } else if (next instanceof Disconnect d) {
                peer.peerDisconnected(d.peer());
            }
        }
        return peer.hasReady();
    }

    /** As {@link #pump}, for the pipelined driver. */
    private void pumpPipelined(long nowMs) {
        if (!finishSlowFsync(nowMs)) {
            return;
        }
        settleFinished(nowMs);
        if (waitingReset != null) {
            if (!batches.isEmpty()) {
                return;
            }
            Ready ready = waitingReset;
            waitingReset = null;
            if (performInOrder(ready, nowMs)) {
                return;
            }
        }
        peer.tick(nowMs);
        while (feedUntilReady()) {
            Ready ready = peer.ready();
            if (ready.resetsState() && !batches.isEmpty()) {
                waitingReset = ready;
                return;
            }
            if (ready.resetsState() || batches.isEmpty() && ready.entriesToPersist().isEmpty()) {
                if (performInOrder(ready, nowMs)) {
                    return;
                }
                continue;
            }
            for (Outbound out : ready.sendImmediately()) {
                if (heldByPeer.containsKey(out.to())) {
                    hold(batches.peekLast(), out);
                } else {
                    send(out);
                }
            }
            if (!ready.entriesToPersist().isEmpty()) {
                // a batch's fsync cannot finish before the one ahead of it
                long previousDoneMs = batches.isEmpty() ? nowMs : batches.peekLast().doneAtMs;
                long doneAtMs = Math.max(previousDoneMs, nowMs + fsyncLatencyMs());
                batches.add(new PipelinedBatch(ready.entriesToPersist(), doneAtMs));
            }
            PipelinedBatch last = batches.peekLast();
            if (ackBeforePersist) {
                ready.sendAfterPersist().forEach(this::send);
            } else {
                ready.sendAfterPersist().forEach(out -> hold(last, out));
            }
            for (Received received : ready.received()) {
                onAppData(received.payload());
            }
            last.settle.add(ready);
            settleFinished(nowMs);
        }
    }

    /**
     * Starts and, unless its fsync must wait, finishes one batch; true if it waits for the disk
     * (only a batch with something to fsync does).
     */
    private boolean performInOrder(Ready ready, long nowMs) {
        start(ready);
        boolean writes = writesToDisk(ready);
        long latencyMs = writes ? fsyncLatencyMs() : 0;
        if (latencyMs > 0 || diskStalled && writes) {
            inFlight = ready;
            fsyncDoneAtMs = nowMs + latencyMs;
            return true;
        }
        finish(ready);
        return false;
    }

    private void hold(PipelinedBatch batch, Outbound out) {
        batch.held.add(out);
        heldByPeer.merge(out.to(), 1, Integer::sum);
    }

    /** Finishes, in order, the batches whose fsync is done: write, sync, release what waited. */
    private void settleFinished(long nowMs) {
        while (!batches.isEmpty() && batches.peekFirst().doneAtMs <= nowMs && !diskStalled) {
            PipelinedBatch batch = batches.pollFirst();
            batch.entries.forEach(disk::append);
            disk.fsync();
            for (Outbound out : batch.held) {
                heldByPeer.compute(out.to(), (to, count) -> count == 1 ? null : count - 1);
                send(out);
            }
            for (Ready ready : batch.settle) {
                applyCommitted(ready);
                for (long token : ready.syncsDone()) {
                    world.syncDone(this, token);
                }
                markResynced(ready);
                peer.advance(ready);
            }
        }
    }

    private void start(Ready ready) {
        if (ready.roleChange() != null) {
            // as the server's prep does on every change of role or epoch: start over from the log
            prep = null;
            world.roleChanged(this, ready.roleChange());
        }
        ready.sendImmediately().forEach(this::send);
        if (ackBeforePersist) {
            ready.sendAfterPersist().forEach(this::send);
        }
        if (ready.abandonHistory()) {
            // the marker first, then the log (it starts again at 0) and the snapshots; the state empties
            disk.setAsideHistory();
            machine = TreeMachine.empty(clock, id);
            prep = null;
            historiesAbandoned++;
        }
        if (ready.epochs() != null) {
            disk.writeEpochs(ready.epochs());
        }
        if (ready.truncateAfterZxid() >= 0) {
            disk.truncateAfter(ready.truncateAfterZxid());
            machine = trustingRecovery
                    ? SimRecovery.trusting(disk, ready.truncateAfterZxid(), ledger, clock, id).machine()
                    : SimRecovery.afterTruncation(disk, ledger, clock, id);
            prep = null;
        }
        if (ready.snapshot() != null) {
            disk.installSnapshot(ready.snapshot());
            machine = TreeMachine.restore(ready.snapshot(), ledger, clock, id);
            prep = null;
        }
        ready.entriesToPersist().forEach(disk::append);
    }

    private static boolean writesToDisk(Ready ready) {
        return ready.abandonHistory() || ready.epochs() != null || ready.truncateAfterZxid() >= 0
                || ready.snapshot() != null || !ready.entriesToPersist().isEmpty();
    }

    /** How long this fsync takes: up to {@link #slowDiskMaxMs}, drawn from the seeded random. */
    private long fsyncLatencyMs() {
        long latencyMs = slowDiskMaxMs > 0 ? random.nextLong(slowDiskMaxMs + 1) : 0;
        if (latencyMs > 0) {
            slowFsyncs++;
        }
        return latencyMs;
    }

    private void finish(Ready ready) {
        inFlight = null;
        disk.fsync();
        if (!ackBeforePersist) {
            ready.sendAfterPersist().forEach(this::send);
        }
        applyCommitted(ready);
        for (Received received : ready.received()) {
            onAppData(received.payload());
        }
        for (long token : ready.syncsDone()) {
            world.syncDone(this, token);
        }
        markResynced(ready);
        peer.advance(ready);
    }

    /** The member holds a leader's history again: its marker goes, durably (the server's remove fsyncs). */
    private void markResynced(Ready ready) {
        if (ready.resynced()) {
            disk.removeResyncMarker();
            disk.fsync();
        }
    }

    private void applyCommitted(Ready ready) {
        for (Entry entry : ready.committed()) {
            TreeMachine.Applied applied = machine.apply(entry);
            if (prep != null) {
                prep.applied(entry.zxid());
            }
            world.applied(this, applied);
        }
        if (!isServingLeader()) {
            prep = null;
        } else if (prep == null && batches.isEmpty() && machine.lastZxid() == disk.lastZxid()) {
            // prep validates against the tree, so it starts only once the tree holds the leader's whole log
            prep = new SimPrep(machine, clock, random, peer.nextZxid());
        }
    }

    private void send(Outbound out) {
        world.send(id, out.to(), out.message());
    }

    /** A client's linearizable sync: false if this member cannot serve. */
    boolean sync(long token) {
        return isServing() && peer.sync(token);
    }

    /** A client request arrived at this member: hand it to the leader. False if this member cannot serve. */
    boolean submit(SimRequest request) {
        return isServing() && peer.sendToLeader(request.encode());
    }

    private void onAppData(byte[] payload) {
        Object message = SimRequest.decode(payload);
        if (message instanceof SimRequest.Refusal refusal) {
            world.refused(this, refusal);
            return;
        }
        SimRequest request = (SimRequest) message;
        if (prep == null || !isServingLeader()) {
            return; // not leading (yet): the client will time out and retry elsewhere
        }
        SimPrep.Outcome outcome = prep.prepare(request);
        if (outcome.error() != null) {
            SimRequest.Refusal refusal = new SimRequest.Refusal(request.sessionId(), request.xid(), outcome.error().code());
            if (request.origin() == id) {
                world.refused(this, refusal);
            } else {
                peer.sendTo(request.origin(), SimRequest.encode(refusal));
            }
            return;
        }
        Txn txn = outcome.txn();
        if (txn.zxid() != peer.nextZxid()) {
            throw new IllegalStateException("prep gave zxid " + Long.toHexString(txn.zxid()) + " but the core expects "
                    + Long.toHexString(peer.nextZxid()));
        }
        if (!peer.propose(txn.zxid(), txn.encode())) {
            throw new IllegalStateException("serving leader refused a proposal");
        }
    }

    /**
     * Takes a snapshot of committed state, when that is possible right now, as the server does
     * (the log rolls, the snapshot file is written), then runs the autopurge: the newest
     * {@link #SNAPSHOTS_RETAINED} snapshots stay, with the log needed to replay the oldest of them.
     */
    void purge() {
        SnapshotFile newest = disk.newestSnapshot();
        if (isServing() && inFlight == null && batches.isEmpty() && !disk.hasUnsynced()
                && machine.lastZxid() == peer.committedZxid()
                && machine.lastZxid() > (newest == null ? 0 : newest.zxid())) {
            disk.takeSnapshot(machine.snapshot(ledger));
            disk.autopurge(SNAPSHOTS_RETAINED);
            disk.fsync();
        }
    }
}
