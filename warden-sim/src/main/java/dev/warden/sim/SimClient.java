package dev.warden.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * A client session: connected to one member, one operation at a time (CAS write, sequential
 * create or local read). It remembers the last zxid and version it saw; a member that has applied
 * less refuses it, and on loss or timeout it fails over to another member.
 */
public final class SimClient {
    public enum Kind { READ, SYNC_READ, CAS, CREATE }

    /** One operation in the client's history; {@code completeMs} is -1 while it is unknown. */
    public record Op(long clientId, long requestId, Kind kind, long invokeMs, long completeMs, boolean ok,
                     long version, long value, long sequence, long zxid) { }

    private final long id;
    private final RandomGenerator random;
    private final long timeoutMs;
    private long memberId;
    private long nextRequestId = 1;
    private Command outstanding;
    private long outstandingInvokeMs;
    private long deadlineMs;
    private long lastSeenZxid;
    private long lastSeenVersion;
    /** The version the next CAS expects: refusals tell us the leader's pending version, which may never commit. */
    private long guessVersion;
    private final List<Op> history = new ArrayList<>();
    private int timeouts;

    SimClient(long id, long memberId, RandomGenerator random, long timeoutMs) {
        this.id = id;
        this.memberId = memberId;
        this.random = random;
        this.timeoutMs = timeoutMs;
    }

    public long id() {
        return id;
    }

    public long memberId() {
        return memberId;
    }

    public List<Op> history() {
        return history;
    }

    public boolean busy() {
        return outstanding != null;
    }

    public int timeouts() {
        return timeouts;
    }

    /** Gives up on the outstanding request (its outcome stays unknown) and moves to another member. */
    void failOver(List<Long> members) {
        outstanding = null;
        outstandingSync = false;
        long next = members.get(random.nextInt(members.size()));
        memberId = next;
    }

    /** Scripted scenarios: abandon any outstanding request and talk to this member from now on. */
    public void connectTo(long member) {
        outstanding = null;
        outstandingSync = false;
        memberId = member;
    }

    void checkTimeout(long nowMs, List<Long> members) {
        if (outstanding != null && nowMs > deadlineMs) {
            timeouts++;
            failOver(members);
        }
    }

    /** A local read; null if the member refused (behind this session, or not serving). */
    Op read(SimMember member, long nowMs, Checkers checkers) {
        if (member == null || !member.isServing() || member.machine().lastZxid() < lastSeenZxid) {
            return null;
        }
        RegisterMachine machine = member.machine();
        Op op = new Op(id, nextRequestId++, Kind.READ, nowMs, nowMs, true, machine.version(), machine.value(), -1,
                machine.lastZxid());
        checkers.checkSessionRead(this, op, lastSeenVersion, lastSeenZxid);
        lastSeenZxid = Math.max(lastSeenZxid, op.zxid());
        lastSeenVersion = Math.max(lastSeenVersion, op.version());
        history.add(op);
        return op;
    }

    /** Starts a linearizable read: a sync, then a local read once the member reports it done. */
    boolean syncRead(SimMember member, long nowMs) {
        if (member == null || outstanding != null) {
            return false;
        }
        long requestId = nextRequestId++;
        if (!member.sync(syncToken(requestId))) {
            return false;
        }
        outstanding = new Command(Command.Kind.REFUSED, member.id(), id, requestId, 0, 0);
        outstandingSync = true;
        outstandingInvokeMs = nowMs;
        deadlineMs = nowMs + timeoutMs;
        return true;
    }

    private boolean outstandingSync;

    long syncToken(long requestId) {
        return id << 32 | requestId;
    }

    /** The member finished a sync; if it is ours, read now. Returns the read, or null. */
    Op syncDone(SimMember member, long token, long nowMs, Checkers checkers) {
        if (outstanding == null || !outstandingSync || token != syncToken(outstanding.requestId())
                || member.id() != memberId) {
            return null;
        }
        RegisterMachine machine = member.machine();
        Op op = new Op(id, outstanding.requestId(), Kind.SYNC_READ, outstandingInvokeMs, nowMs, true,
                machine.version(), machine.value(), -1, machine.lastZxid());
        outstanding = null;
        outstandingSync = false;
        checkers.checkSessionRead(this, op, lastSeenVersion, lastSeenZxid);
        checkers.checkSyncRead(this, op);
        lastSeenZxid = Math.max(lastSeenZxid, op.zxid());
        lastSeenVersion = Math.max(lastSeenVersion, op.version());
        history.add(op);
        return op;
    }

    /** Starts a write; false if the member would not take it. */
    boolean write(SimMember member, Kind kind, long nowMs) {
        if (member == null || outstanding != null) {
            return false;
        }
        Command.Kind commandKind = kind == Kind.CAS ? Command.Kind.CAS : Command.Kind.CREATE;
        Command command = new Command(commandKind, member.id(), id, nextRequestId++, Math.max(guessVersion, lastSeenVersion),
                random.nextLong(1_000_000));
        if (!member.submit(command)) {
            return false;
        }
        outstanding = command;
        outstandingInvokeMs = nowMs;
        deadlineMs = nowMs + timeoutMs;
        return true;
    }

    /** The member this client talks to applied or refused our request. */
    Op complete(RegisterMachine.Result result, boolean ok, long nowMs) {
        Command command = result.command();
        if (outstanding == null || outstandingSync || command.requestId() != outstanding.requestId() || command.origin() != memberId) {
            return null;
        }
        Kind kind = command.kind() == Command.Kind.CREATE ? Kind.CREATE : Kind.CAS;
        Op op = new Op(id, command.requestId(), kind, outstandingInvokeMs, nowMs, ok, result.version(),
                command.value(), result.sequence(), result.zxid());
        outstanding = null;
        history.add(op);
        if (ok) {
            lastSeenZxid = Math.max(lastSeenZxid, result.zxid());
            lastSeenVersion = Math.max(lastSeenVersion, result.version());
        }
        guessVersion = Math.max(guessVersion, result.version());
        return op;
    }
}
