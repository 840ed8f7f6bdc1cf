package dev.warden.sim;

import dev.warden.protocol.ErrorCode;
import dev.warden.protocol.Stat;
import dev.warden.state.txn.TxnBody;
import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * A client session: connected to one member, one operation at a time (CAS write, sequential
 * create, local read or sync-then-read). Its session is created through the log before its first
 * write, and the nodes it writes under are created on demand, the way a real client would. It
 * remembers the last zxid and register version it saw; a member that has applied less refuses its
 * reads, and on refusal or timeout it fails over to another member.
 */
public final class SimClient {
    /** EPHEMERAL creates the session's ephemeral node; CLOSE closes the session (the next write opens a new one). */
    public enum Kind { READ, SYNC_READ, CAS, CREATE, EPHEMERAL, CLOSE }

    /** Sessions never expire in the simulation; the value only travels in the createSession txn. */
    static final int SESSION_TIMEOUT_MS = 30_000;

    /** One operation in the client's history; {@code completeMs} is -1 while it is unknown. */
    public record Op(long clientId, long requestId, Kind kind, long invokeMs, long completeMs, boolean ok,
                     long version, long value, long sequence, long zxid) { }

    private final long id;
    private long sessionId;
    private int sessionGeneration;
    private final byte[] password;
    private final RandomGenerator random;
    private final long timeoutMs;
    private long memberId;
    private int nextXid = 1;
    private boolean sessionCreated;
    /** The member the session is attached to (the leader routes its requests from there only), or -1. */
    private long attachedTo = -1;
    /** Set once this client knows the node exists (created it, or was told NODE_EXISTS), whatever its member has applied. */
    private boolean registerExists;
    private boolean sequenceParentExists;
    /** The request in flight: a write or a setup step before one; null if none. */
    private SimRequest outstanding;
    /** The write the client means to do once the setup step in flight is done; null if none. */
    private Kind intent;
    /** The xid of the sync in flight, or 0 if none (xids start at 1). */
    private int outstandingSyncXid;
    private long outstandingInvokeMs;
    private long deadlineMs;
    private long lastSeenZxid;
    private long lastSeenVersion = -1;
    private final List<Op> history = new ArrayList<>();
    private int timeouts;

    SimClient(long id, long memberId, RandomGenerator random, long timeoutMs) {
        this.id = id;
        // the member that accepts a connection picks id and password; here the id names the client
        this.sessionId = sessionIdFor(id, 0);
        this.password = new byte[16];
        random.nextBytes(password);
        this.memberId = memberId;
        this.random = random;
        this.timeoutMs = timeoutMs;
    }

    public long id() {
        return id;
    }

    private static final long SESSION_TAG = 0x51L << 40;
    private static final int MAX_CLIENTS = 1 << 16;

    /** Session ids carry the client id in their low 16 bits and a generation above it. */
    private static long sessionIdFor(long clientId, int generation) {
        if (clientId <= 0 || clientId >= MAX_CLIENTS) {
            throw new IllegalArgumentException("client id out of range: " + clientId);
        }
        return SESSION_TAG | (long) generation << 16 | clientId;
    }

    /** The client a session id belongs to, or 0 if it is not a simulated client's. */
    static long clientIdOf(long sessionId) {
        return (sessionId & 0xff00_0000_0000L) == SESSION_TAG ? sessionId & (MAX_CLIENTS - 1) : 0;
    }

    public long sessionId() {
        return sessionId;
    }

    public long memberId() {
        return memberId;
    }

    public List<Op> history() {
        return history;
    }

    public boolean busy() {
        return outstanding != null || outstandingSyncXid != 0;
    }

    public int timeouts() {
        return timeouts;
    }

    /** Gives up on the outstanding request (its outcome stays unknown) and moves to another member. */
    void failOver(List<Long> members) {
        abandon();
        memberId = members.get(random.nextInt(members.size()));
    }

    /** Scripted scenarios: abandon any outstanding request and talk to this member from now on. */
    public void connectTo(long member) {
        abandon();
        memberId = member;
    }

    private void abandon() {
        outstanding = null;
        outstandingSyncXid = 0;
        intent = null;
    }

    void checkTimeout(long nowMs, List<Long> members) {
        if (busy() && nowMs > deadlineMs) {
            timeouts++;
            failOver(members);
        }
    }

    /** A local getData of the register; null if the member refused (behind this session, or not serving). */
    Op read(SimServer member, long nowMs, Checkers checkers) {
        if (member == null || !member.isServing() || member.machine().lastZxid() < lastSeenZxid) {
            return null;
        }
        return recordRead(member, Kind.READ, nextXid++, nowMs, nowMs, checkers);
    }

    private Op recordRead(SimServer member, Kind kind, long requestId, long invokeMs, long nowMs, Checkers checkers) {
        TreeMachine.RegisterRead read = member.machine().readRegister();
        Op op = new Op(id, requestId, kind, invokeMs, nowMs, true, read.version(), read.value(), -1, read.zxid());
        checkers.checkSessionRead(this, op, lastSeenVersion, lastSeenZxid);
        if (kind == Kind.SYNC_READ) {
            checkers.checkSyncRead(this, op);
        }
        lastSeenZxid = Math.max(lastSeenZxid, op.zxid());
        lastSeenVersion = Math.max(lastSeenVersion, op.version());
        history.add(op);
        return op;
    }

    /** Starts a linearizable read: a sync, then a local read once the member reports it done. */
    boolean syncRead(SimServer member, long nowMs) {
        if (member == null || busy()) {
            return false;
        }
        int xid = nextXid++;
        if (!member.sync(syncToken(xid))) {
            return false;
        }
        outstandingSyncXid = xid;
        outstandingInvokeMs = nowMs;
        deadlineMs = nowMs + timeoutMs;
        return true;
    }

    long syncToken(long xid) {
        return id << 32 | xid;
    }

    /** The member finished a sync; if it is ours, read now. Returns the read, or null. */
    Op syncDone(SimServer member, long token, long nowMs, Checkers checkers) {
        if (outstandingSyncXid == 0 || token != syncToken(outstandingSyncXid) || member.id() != memberId) {
            return null;
        }
        int xid = outstandingSyncXid;
        outstandingSyncXid = 0;
        return recordRead(member, Kind.SYNC_READ, xid, outstandingInvokeMs, nowMs, checkers);
    }

    /** Starts a write (after whatever setup it needs); false if the member would not take it. */
    boolean write(SimServer member, Kind kind, long nowMs) {
        if (member == null || busy() || !member.isServing()) {
            return false;
        }
        outstandingInvokeMs = nowMs;
        deadlineMs = nowMs + timeoutMs;
        intent = kind;
        return submitNext(member);
    }

    /** Sends the next request toward the intended write: session first, then the parent node, then the write. */
    private boolean submitNext(SimServer member) {
        SimRequest request;
        TreeMachine machine = member.machine();
        if (!sessionCreated) {
            request = new SimRequest(SimRequest.Kind.CREATE_SESSION, member.id(), sessionId, 0, 0, 0, password);
        } else if (intent == Kind.CAS && !registerExists && !machine.hasNode(SimRequest.REGISTER)) {
            request = new SimRequest(SimRequest.Kind.SETUP_REGISTER, member.id(), sessionId, nextXid++, 0, 0, null);
        } else if (intent == Kind.CREATE && !sequenceParentExists && !machine.hasNode(SimRequest.SEQUENCE_PARENT)) {
            request = new SimRequest(SimRequest.Kind.SETUP_SEQUENCE, member.id(), sessionId, nextXid++, 0, 0, null);
        } else if (intent == Kind.CAS) {
            // a CAS loop: expect the version seen last, or the member's newer one
            int expected = (int) Math.max(Math.max(0, lastSeenVersion), machine.readRegister().version());
            request = new SimRequest(SimRequest.Kind.CAS, member.id(), sessionId, nextXid++, expected,
                    random.nextLong(1_000_000), null);
        } else if (intent == Kind.EPHEMERAL) {
            request = new SimRequest(SimRequest.Kind.EPHEMERAL, member.id(), sessionId, nextXid++, 0, 0, null);
        } else if (intent == Kind.CLOSE) {
            request = new SimRequest(SimRequest.Kind.CLOSE_SESSION, member.id(), sessionId, nextXid++, 0, 0, null);
        } else {
            request = new SimRequest(SimRequest.Kind.CREATE, member.id(), sessionId, nextXid++, 0,
                    random.nextLong(1_000_000), null);
        }
        if (sessionCreated && attachedTo != member.id()) {
            // a client that reconnects elsewhere: the member tells the leader, as a server does on reconnect
            member.attach(sessionId);
            attachedTo = member.id();
        }
        if (!member.submit(request)) {
            abandon();
            return false;
        }
        outstanding = request;
        return true;
    }

    private boolean awaits(SimServer member, int xid) {
        return outstanding != null && member.id() == memberId && outstanding.xid() == xid
                && outstanding.origin() == memberId;
    }

    /** Our member applied a transaction of this session; returns the completed write, or null. */
    Op onApplied(SimServer member, TreeMachine.Applied applied, long nowMs) {
        if (!awaits(member, applied.txn().cxid())) {
            return null;
        }
        SimRequest done = outstanding;
        outstanding = null;
        lastSeenZxid = Math.max(lastSeenZxid, applied.txn().zxid());
        switch (done.kind()) {
            case CREATE_SESSION -> {
                sessionCreated = true;
                attachedTo = member.id();
            }
            case SETUP_REGISTER -> registerExists = true;
            case SETUP_SEQUENCE -> sequenceParentExists = true;
            case CAS -> {
                Stat stat = applied.stats().get(0);
                lastSeenVersion = Math.max(lastSeenVersion, stat.version());
                return finish(new Op(id, done.xid(), Kind.CAS, outstandingInvokeMs, nowMs, true, stat.version(),
                        done.value(), -1, applied.txn().zxid()));
            }
            case EPHEMERAL -> {
                return finish(new Op(id, done.xid(), Kind.EPHEMERAL, outstandingInvokeMs, nowMs, true, -1, 0, -1,
                        applied.txn().zxid()));
            }
            case CLOSE_SESSION -> {
                // the next write opens a fresh session, as a client does after closing one
                sessionCreated = false;
                sessionId = sessionIdFor(id, ++sessionGeneration);
                return finish(new Op(id, done.xid(), Kind.CLOSE, outstandingInvokeMs, nowMs, true, -1, 0, -1,
                        applied.txn().zxid()));
            }
            case CREATE -> {
                String path = ((TxnBody.Create) applied.txn().body()).path();
                long sequence = Long.parseLong(path.substring(SimRequest.SEQUENCE_PREFIX.length()));
                return finish(new Op(id, done.xid(), Kind.CREATE, outstandingInvokeMs, nowMs, true, -1,
                        done.value(), sequence, applied.txn().zxid()));
            }
        }
        continueIntent(member);
        return null;
    }

    /** The leader's prep refused our request; returns the failed write if that ends the operation. */
    Op onRefused(SimServer member, SimRequest.Refusal refusal, long nowMs) {
        if (!awaits(member, refusal.xid())) {
            return null;
        }
        SimRequest done = outstanding;
        outstanding = null;
        boolean setup = done.kind() == SimRequest.Kind.SETUP_REGISTER || done.kind() == SimRequest.Kind.SETUP_SEQUENCE;
        if (setup && refusal.errorCode() == ErrorCode.NODE_EXISTS.code()) {
            // someone else created it first: just as good, even if this member has not applied it yet
            registerExists |= done.kind() == SimRequest.Kind.SETUP_REGISTER;
            sequenceParentExists |= done.kind() == SimRequest.Kind.SETUP_SEQUENCE;
            continueIntent(member);
            return null;
        }
        if (refusal.errorCode() == ErrorCode.SESSION_EXPIRED.code()) {
            sessionCreated = false; // its createSession never committed (the prepping leader lost office)
        }
        Kind kind = intent == null ? Kind.CAS : intent;
        return finish(new Op(id, done.xid(), kind, outstandingInvokeMs, nowMs, false, done.expectedVersion(),
                done.value(), -1, 0));
    }

    private void continueIntent(SimServer member) {
        if (intent != null && member.isServing()) {
            submitNext(member);
        } else {
            abandon();
        }
    }

    private Op finish(Op op) {
        intent = null;
        history.add(op);
        return op;
    }
}
