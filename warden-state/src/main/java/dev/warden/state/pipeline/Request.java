package dev.warden.state.pipeline;

import dev.warden.protocol.ErrorCode;
import dev.warden.protocol.Record;
import dev.warden.state.txn.Txn;
import java.util.List;

/**
 * One client (or internal) request moving through prep → log → apply → reply. Fields set by
 * a stage are read by later stages only after a queue hand-off, which publishes them safely.
 */
public final class Request {
    /** Null for requests the server makes itself (session expiry, container reaping). */
    public final Origin origin;
    public final long sessionId;
    public final int xid;
    public final int opcode;
    public final Record body;

    Txn txn;
    ErrorCode error;
    /** For a multi that failed validation: the per-op results to send. */
    List<ErrorCode> multiErrors;
    List<PendingNode> pendingRecords = List.of();
    /** Close the connection once this request's reply is sent. */
    boolean closeAfterReply;
    /** createSession only: what the handshake negotiated. */
    int sessionTimeoutMs;
    boolean readOnlyPresent;
    /** createSession on an ensemble member: the id and password the accepting member chose. */
    byte[] presetPassword;
    /** See {@link #receivedNs()}. */
    private long receivedNs;
    /** See {@link #moreBehind()}. */
    private boolean moreBehind;

    public Request(Origin origin, long sessionId, int xid, int opcode, Record body) {
        this.origin = origin;
        this.sessionId = sessionId;
        this.xid = xid;
        this.opcode = opcode;
        this.body = body;
    }

    public static Request createSession(Origin origin, int timeoutMs, boolean readOnlyPresent) {
        Request request = new Request(origin, 0, 0, dev.warden.protocol.OpCode.CREATE_SESSION, null);
        request.sessionTimeoutMs = timeoutMs;
        request.readOnlyPresent = readOnlyPresent;
        return request;
    }

    /**
     * A createSession whose id and password were chosen by the member that accepted the
     * connection (ensemble mode): the leader's prep uses them instead of making its own.
     */
    public static Request createSession(Origin origin, long sessionId, byte[] password, int timeoutMs,
                                        boolean readOnlyPresent) {
        Request request = new Request(origin, sessionId, 0, dev.warden.protocol.OpCode.CREATE_SESSION, null);
        request.sessionTimeoutMs = timeoutMs;
        request.readOnlyPresent = readOnlyPresent;
        request.presetPassword = password.clone();
        return request;
    }

    /** Marks a request that failed before prep (undecodable, unsupported); it still travels the
     *  pipeline so its reply keeps its place in the session's order. */
    public void presetError(ErrorCode code, boolean thenClose) {
        this.error = code;
        this.closeAfterReply = thenClose;
    }

    /**
     * A write whose transaction could not be made durable: it is never applied and is answered
     * with {@code code} instead.
     */
    public void abandonWrite(ErrorCode code) {
        this.txn = null;
        this.error = code;
    }

    public Txn txn() {
        return txn;
    }

    /** Records when the connection decoded this request, for the latency figures of {@code mntr} and {@code stat}. */
    public Request receivedAt(long nanoTime) {
        this.receivedNs = nanoTime;
        return this;
    }

    /** {@link System#nanoTime()} when a client connection decoded it; 0 when not recorded (internal requests). */
    public long receivedNs() {
        return receivedNs;
    }

    /** Records whether the client had sent more by the time this request was decoded. */
    public Request markMoreBehind(boolean value) {
        this.moreBehind = value;
        return this;
    }

    /**
     * True when the connection had already received more from this request's client (another
     * request, or part of one) when it decoded this one: the client is pipelining, and the next
     * request is right behind this one.
     */
    public boolean moreBehind() {
        return moreBehind;
    }

    public ErrorCode error() {
        return error;
    }

    /** For a multi that failed validation: the per-op results; otherwise null. */
    public List<ErrorCode> multiErrors() {
        return multiErrors;
    }

    /** What prep published to the pending state for this request's transaction. */
    public List<PendingNode> pendingRecords() {
        return pendingRecords;
    }

    public boolean closeAfterReply() {
        return closeAfterReply;
    }

    public int sessionTimeoutMs() {
        return sessionTimeoutMs;
    }

    public boolean readOnlyPresent() {
        return readOnlyPresent;
    }

    /** True for requests that change state (need a log record). */
    public boolean isWrite() {
        return txn != null;
    }

    @Override
    public String toString() {
        return dev.warden.protocol.OpCode.name(opcode) + " session=0x" + Long.toHexString(sessionId) + " xid=" + xid;
    }
}
