package dev.warden.server.net;

import dev.warden.protocol.OpCode;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * One connection's figures for the cons and stat words, as ZooKeeper keeps them per connection:
 * packets each way, when it was established, the last operation, its cxid, zxid, reply time and
 * latency, and the latency range. {@code crst} resets them. Written by the connection's threads,
 * read by the admin words from any thread.
 */
final class ConnectionStats {
    private final LongAdder received = new LongAdder();
    private final LongAdder sent = new LongAdder();
    private final long establishedAtMs;
    private volatile String lastOperation = "NA";
    private volatile long lastCxid = -1;
    private volatile long lastZxid = -1;
    private volatile long lastResponseMs;
    private volatile long lastLatencyMs;
    private final LongAccumulator minLatencyMs = new LongAccumulator(Math::min, Long.MAX_VALUE);
    private final LongAccumulator maxLatencyMs = new LongAccumulator(Math::max, 0);
    private final LongAdder latencyCount = new LongAdder();
    private final LongAdder latencyTotalMs = new LongAdder();

    ConnectionStats(long establishedAtMs) {
        this.establishedAtMs = establishedAtMs;
    }

    void received() {
        received.increment();
    }

    void sent() {
        sent.increment();
    }

    /**
     * A request of this connection was answered: {@code nowMs} is a monotonic millisecond clock,
     * as ZooKeeper's lresp is.
     */
    void answered(int opcode, int cxid, long zxid, long latencyMs, long nowMs) {
        lastOperation = operationName(opcode);
        if (opcode != OpCode.PING) {
            lastCxid = cxid;
        }
        lastZxid = zxid;
        lastResponseMs = nowMs;
        lastLatencyMs = latencyMs;
        minLatencyMs.accumulate(latencyMs);
        maxLatencyMs.accumulate(latencyMs);
        latencyCount.increment();
        latencyTotalMs.add(latencyMs);
    }

    long packetsReceived() {
        return received.sum();
    }

    long packetsSent() {
        return sent.sum();
    }

    /** ZooKeeper's "est": wall-clock milliseconds when the connection was accepted. */
    long establishedAtMs() {
        return establishedAtMs;
    }

    String lastOperation() {
        return lastOperation;
    }

    long lastCxid() {
        return lastCxid;
    }

    long lastZxid() {
        return lastZxid;
    }

    long lastResponseMs() {
        return lastResponseMs;
    }

    long lastLatencyMs() {
        return lastLatencyMs;
    }

    long minLatencyMs() {
        long m = minLatencyMs.get();
        return m == Long.MAX_VALUE ? 0 : m;
    }

    long maxLatencyMs() {
        return maxLatencyMs.get();
    }

    long avgLatencyMs() {
        long n = latencyCount.sum();
        return n == 0 ? 0 : latencyTotalMs.sum() / n;
    }

    /** crst: everything but the establishment time starts again. */
    void reset() {
        received.reset();
        sent.reset();
        lastOperation = "NA";
        lastCxid = -1;
        lastZxid = -1;
        lastResponseMs = 0;
        lastLatencyMs = 0;
        minLatencyMs.reset();
        maxLatencyMs.reset();
        latencyCount.reset();
        latencyTotalMs.reset();
    }

    /** The four-letter names ZooKeeper gives the last operation in cons ("lop"). */
    static String operationName(int opcode) {
        return switch (opcode) {
            case OpCode.PING -> "PING";
            case OpCode.CREATE_SESSION -> "SESS";
            case OpCode.CLOSE_SESSION -> "CLOS";
            case OpCode.MULTI -> "MULT";
            case OpCode.MULTI_READ -> "MLTR";
            case OpCode.CREATE, OpCode.CREATE2, OpCode.CREATE_TTL, OpCode.CREATE_CONTAINER -> "CREA";
            case OpCode.DELETE, OpCode.DELETE_CONTAINER -> "DELE";
            case OpCode.SET_DATA -> "SETD";
            case OpCode.RECONFIG -> "RECO";
            case OpCode.SET_ACL -> "SETA";
            case OpCode.SYNC -> "SYNC";
            case OpCode.CHECK -> "CHEC";
            case OpCode.EXISTS -> "EXIS";
            case OpCode.GET_DATA -> "GETD";
            case OpCode.SET_WATCHES, OpCode.SET_WATCHES2 -> "SETW";
            case OpCode.CHECK_WATCHES -> "CHKW";
            case OpCode.REMOVE_WATCHES -> "REMW";
            case OpCode.ADD_WATCH -> "ADDW";
            case OpCode.GET_ACL -> "GETA";
            case OpCode.GET_CHILDREN, OpCode.GET_CHILDREN2 -> "GETC";
            case OpCode.GET_ALL_CHILDREN_NUMBER -> "GETACN";
            case OpCode.GET_EPHEMERALS -> "GETE";
            case OpCode.WHO_AM_I -> "HOMI";
            default -> "NA";
        };
    }
}
