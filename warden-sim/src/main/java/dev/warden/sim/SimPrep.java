package dev.warden.sim;

import dev.warden.protocol.CreateMode;
import dev.warden.protocol.CreateRequest;
import dev.warden.protocol.ErrorCode;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.Perms;
import dev.warden.protocol.SetDataRequest;
import dev.warden.server.Clock;
import dev.warden.server.auth.AuthIdentities;
import dev.warden.server.pipeline.Origin;
import dev.warden.server.pipeline.PendingNode;
import dev.warden.server.pipeline.PendingState;
import dev.warden.server.pipeline.Preparer;
import dev.warden.server.pipeline.Request;
import dev.warden.server.quorum.RemoteOrigin;
import dev.warden.server.txn.Txn;
import dev.warden.server.txn.TxnBody;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * The leader's prep, single-threaded, doing what the server's leader prep thread does: the
 * production {@link Preparer} validates each forwarded request against {@link PendingState} (the
 * leader's tree plus everything proposed but not applied) and turns it into a {@link Txn} with
 * the next zxid; records leave the pending state once the leader applies their zxid. Bound to
 * one state machine: a new one (TRUNC, SNAP, restart) needs a new prep.
 */
final class SimPrep {
    /** What prep made of a request: a transaction to propose, or the error to answer with. */
    record Outcome(Txn txn, ErrorCode error) { }

    private final TreeMachine machine;
    private final Preparer preparer;
    private final PendingState pending;
    private final Map<Long, List<PendingNode>> pendingByZxid = new HashMap<>();
    /** A request forwarded by a member, as the leader's prep sees one: answers go back through the sim. */
    private final Origin origin = new RemoteOrigin(new AuthIdentities("sim"));

    /** Starts prepping with {@code nextZxid} as the first zxid; the machine must hold the leader's whole log. */
    SimPrep(TreeMachine machine, Clock clock, RandomGenerator random, long nextZxid) {
        this.machine = machine;
        this.pending = new PendingState(machine.tree());
        this.preparer = new Preparer(pending, machine.state().sessions(), clock, random, false, nextZxid - 1);
    }

    boolean boundTo(TreeMachine other) {
        return machine == other;
    }

    Outcome prepare(SimRequest command) {
        Request request = toRequest(command);
        preparer.prepare(request);
        Txn txn = request.txn();
        if (txn == null) {
            return new Outcome(null, request.error() != null ? request.error() : ErrorCode.SYSTEM_ERROR);
        }
        if (txn.body() instanceof TxnBody.CreateSession created) {
            // later requests of this session may reach prep before the leader applies the session
            machine.state().sessions().add(txn.sessionId(), created.timeoutMs(), created.password());
        }
        if (!request.pendingRecords().isEmpty()) {
            pendingByZxid.put(txn.zxid(), request.pendingRecords());
        }
        return new Outcome(txn, null);
    }

    /** The leader applied {@code zxid}: its pending records are in the tree now. */
    void applied(long zxid) {
        List<PendingNode> records = pendingByZxid.remove(zxid);
        if (records != null) {
            pending.applied(records);
        }
    }

    long lastZxid() {
        return preparer.lastZxid();
    }

    private Request toRequest(SimRequest command) {
        return switch (command.kind()) {
            case CREATE_SESSION -> Request.createSession(origin, command.sessionId(), command.password(),
                    SimClient.SESSION_TIMEOUT_MS, false);
            case SETUP_REGISTER -> create(command, SimRequest.REGISTER, CreateMode.PERSISTENT);
            case SETUP_SEQUENCE -> create(command, SimRequest.SEQUENCE_PARENT, CreateMode.PERSISTENT);
            case CREATE -> create(command, SimRequest.SEQUENCE_PREFIX, CreateMode.PERSISTENT_SEQUENTIAL);
            case EPHEMERAL -> create(command, SimRequest.ephemeralPath(command.sessionId()), CreateMode.EPHEMERAL);
            case CLOSE_SESSION -> new Request(origin, command.sessionId(), command.xid(), OpCode.CLOSE_SESSION, null);
            case CAS -> new Request(origin, command.sessionId(), command.xid(), OpCode.SET_DATA,
                    new SetDataRequest(SimRequest.REGISTER, SimRequest.valueBytes(command.value()),
                            command.expectedVersion()));
        };
    }

    private Request create(SimRequest command, String path, CreateMode mode) {
        return new Request(origin, command.sessionId(), command.xid(), OpCode.CREATE,
                new CreateRequest(path, SimRequest.valueBytes(command.value()), Perms.OPEN_ACL_UNSAFE, mode.flags()));
    }
}
