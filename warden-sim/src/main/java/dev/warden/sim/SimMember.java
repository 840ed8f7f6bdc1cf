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
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.random.RandomGenerator;

/**
 * One simulated server: a ZabPeer, its disk and state machine, and a driver that performs each
 * Ready in the documented order. A slow fsync stalls the member (messages wait in its inbox) like
 * a server whose sync thread blocks. As leader it preps client requests against pending state.
 */
public final class SimMember {
    /** Where the member's effects go: the network, the clients, the checkers. */
    public interface World {
        void send(long from, long to, ZabMessage message);

        void applied(SimMember member, RegisterMachine.Result result);

        void refused(SimMember member, Command command, long currentVersion);

        void syncDone(SimMember member, long token);

        void roleChanged(SimMember member, RoleChange change);
    }

    final long id;
    private final ZabConfig config;
    private final World world;
    private final RandomGenerator random;
    final SimDisk disk = new SimDisk();
    private RegisterMachine machine = new RegisterMachine();
    private RegisterMachine pending;
    private ZabPeer peer;
    private boolean up;
    private Ready inFlight;
    private long fsyncDoneAtMs;
    private final Deque<Object> inbox = new ArrayDeque<>();
    /** Maximum extra fsync latency; 0 means fsync completes at once. */
    long slowDiskMaxMs;
    /** Scripted scenarios: batches that write to disk never finish their fsync until this is cleared. */
    boolean diskStalled;
    /** A deliberately broken driver for checker tests: acknowledgements leave before the fsync. */
    boolean ackBeforePersist;

    private record Disconnect(long peer) { }

    private record Delivery(long from, ZabMessage message) { }

    SimMember(long id, ZabConfig config, World world, RandomGenerator random) {
        this.id = id;
        this.config = config;
        this.world = world;
        this.random = random;
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

    public RegisterMachine machine() {
        return machine;
    }

    public boolean isServing() {
        return up && peer.isServing();
    }

    public boolean isServingLeader() {
        return isServing() && peer.role() == Role.LEADING;
    }

    void start(long nowMs) {
        machine = RegisterMachine.rebuild(disk.snapshot(), disk.entries(), Long.MAX_VALUE);
        pending = null;
        inbox.clear();
        inFlight = null;
        peer = new ZabPeer(config, disk.epochs(), disk, () -> machine.snapshot(), random, nowMs);
        up = true;
    }

    void crash() {
        crash(true);
    }

    void crash(boolean tornTail) {
        up = false;
        inFlight = null;
        inbox.clear();
        peer = null;
        pending = null;
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

    /** Runs the member until it waits on its disk or has nothing to do. */
    void pump(long nowMs) {
        if (!up) {
            return;
        }
        if (inFlight != null) {
            if (nowMs < fsyncDoneAtMs || diskStalled) {
                return;
            }
            finish(inFlight);
        }
        peer.tick(nowMs);
        while (true) {
            while (!inbox.isEmpty() && !peer.hasReady()) {
                Object next = inbox.poll();
                if (next instanceof Delivery d) {
                    peer.receive(d.from(), d.message());
                } else if (next instanceof Disconnect d) {
                    peer.peerDisconnected(d.peer());
                }
            }
            if (!peer.hasReady()) {
                return;
            }
            Ready ready = peer.ready();
            start(ready);
            long latencyMs = slowDiskMaxMs > 0 ? random.nextLong(slowDiskMaxMs + 1) : 0;
            if (latencyMs > 0 || diskStalled && writesToDisk(ready)) {
                inFlight = ready;
                fsyncDoneAtMs = nowMs + latencyMs;
                return;
            }
            finish(ready);
        }
    }

    private void start(Ready ready) {
        if (ready.roleChange() != null) {
            world.roleChanged(this, ready.roleChange());
        }
        ready.sendImmediately().forEach(this::send);
        if (ackBeforePersist) {
            ready.sendAfterPersist().forEach(this::send);
        }
        if (ready.epochs() != null) {
            disk.writeEpochs(ready.epochs());
        }
        if (ready.truncateAfterZxid() >= 0) {
            disk.truncateAfter(ready.truncateAfterZxid());
            machine = RegisterMachine.rebuild(disk.snapshot(), disk.entries(), ready.truncateAfterZxid());
        }
        if (ready.snapshot() != null) {
            disk.installSnapshot(ready.snapshot());
            machine = RegisterMachine.restore(ready.snapshot());
        }
        ready.entriesToPersist().forEach(disk::append);
    }

    private static boolean writesToDisk(Ready ready) {
        return ready.epochs() != null || ready.truncateAfterZxid() >= 0 || ready.snapshot() != null
                || !ready.entriesToPersist().isEmpty();
    }

    private void finish(Ready ready) {
        inFlight = null;
        disk.fsync();
        if (!ackBeforePersist) {
            ready.sendAfterPersist().forEach(this::send);
        }
        for (Entry entry : ready.committed()) {
            RegisterMachine.Result result = machine.apply(entry);
            world.applied(this, result);
        }
        if (isServingLeader() && pending == null) {
            // a new leader's pending state starts from everything it has committed
            pending = machine.copy();
        } else if (!isServingLeader()) {
            pending = null;
        }
        for (Received received : ready.received()) {
            onAppData(received.payload());
        }
        for (long token : ready.syncsDone()) {
            world.syncDone(this, token);
        }
        peer.advance(ready);
    }

    private void send(Outbound out) {
        world.send(id, out.to(), out.message());
    }

    /** A client's linearizable sync: false if this member cannot serve. */
    boolean sync(long token) {
        return isServing() && peer.sync(token);
    }

    /** A client request arrived at this member: hand it to the leader. False if this member cannot serve. */
    boolean submit(Command command) {
        return isServing() && peer.sendToLeader(command.encode());
    }

    private void onAppData(byte[] payload) {
        Command command = Command.decode(payload);
        if (command.kind() == Command.Kind.REFUSED) {
            world.refused(this, command, command.expectedVersion());
            return;
        }
        if (pending == null || !isServingLeader()) {
            return; // not leading any more: the client will time out and retry elsewhere
        }
        long zxid = peer.nextZxid();
        RegisterMachine.Result prepped = pending.applyCommand(command, zxid);
        if (!prepped.ok()) {
            Command refusal = new Command(Command.Kind.REFUSED, command.origin(), command.clientId(),
                    command.requestId(), prepped.version(), 0);
            if (command.origin() == id) {
                world.refused(this, refusal, prepped.version());
            } else {
                peer.sendTo(command.origin(), refusal.encode());
            }
            return;
        }
        if (!peer.propose(zxid, command.encode())) {
            throw new IllegalStateException("serving leader refused a proposal");
        }
    }

    /** Takes a snapshot of committed state and drops the log before it, when that is possible right now. */
    void purge() {
        if (isServing() && inFlight == null && !disk.hasUnsynced() && machine.lastZxid() == peer.committedZxid()
                && machine.lastZxid() > disk.snapshot().zxid()) {
            disk.purgeTo(machine.snapshot());
        }
    }
}
