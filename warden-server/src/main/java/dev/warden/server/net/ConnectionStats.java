package dev.warden.server.net;

import dev.warden.protocol.OpCode;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One connection's figures for the cons and stat words, as ZooKeeper keeps them per connection:
 * packets each way, when it was established, the last operation, its cxid, zxid, reply time and
 * latency, and the latency range. {@code crst} resets them. Written by the connection's threads,
 * read by the admin words from any thread.
 *
 * <p>Plain volatile fields updated atomically through VarHandles, not LongAdders: a connection's
 * writers rarely contend (its event loop and the thread answering its request), and four
 * LongAdders and two LongAccumulators cost about 200 bytes more on every connection, idle ones
 * included.
 */
final class ConnectionStats {
    private static final VarHandle RECEIVED = field("received");
    private static final VarHandle SENT = field("sent");
    private static final VarHandle MIN_LATENCY_MS = field("minLatencyMs");
    private static final VarHandle MAX_LATENCY_MS = field("maxLatencyMs");
    private static final VarHandle LATENCY_COUNT = field("latencyCount");
    private static final VarHandle LATENCY_TOTAL_MS = field("latencyTotalMs");

    private volatile long received;
    private volatile long sent;
    private final long establishedAtMs;
    private volatile String lastOperation = "NA";
    private volatile long lastCxid = -1;
    private volatile long lastZxid = -1;
    private volatile long lastResponseMs;
    private volatile long lastLatencyMs;
    private volatile long minLatencyMs = Long.MAX_VALUE;
    private volatile long maxLatencyMs;
    private volatile long latencyCount;
    private volatile long latencyTotalMs;

    ConnectionStats(long establishedAtMs) {
        this.establishedAtMs = establishedAtMs;
    }

    private static VarHandle field(String name) {
        return FieldHandles.of(MethodHandles.lookup(), name, long.class);
    }

    void received() {
        RECEIVED.getAndAdd(this, 1L);
    }

    void sent() {
        SENT.getAndAdd(this, 1L);
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
        for (long min = minLatencyMs; latencyMs < min; min = minLatencyMs) {
            if (MIN_LATENCY_MS.compareAndSet(this, min, latencyMs)) {
                break;
            }
        }
        for (long max = maxLatencyMs; latencyMs > max; max = maxLatencyMs) {
            if (MAX_LATENCY_MS.compareAndSet(this, max, latencyMs)) {
                break;
            }
        }
        LATENCY_COUNT.getAndAdd(this, 1L);
        LATENCY_TOTAL_MS.getAndAdd(this, latencyMs);
    }

    long packetsReceived() {
        return received;
    }

    long packetsSent() {
        return sent;
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
        long m = minLatencyMs;
        return m == Long.MAX_VALUE ? 0 : m;
    }

    long maxLatencyMs() {
        return maxLatencyMs;
    }

    long avgLatencyMs() {
        long n = latencyCount;
        return n == 0 ? 0 : latencyTotalMs / n;
    }

    /** crst: everything but the establishment time starts again. */
    void reset() {
        received = 0;
        sent = 0;
        lastOperation = "NA";
        lastCxid = -1;
        lastZxid = -1;
        lastResponseMs = 0;
        lastLatencyMs = 0;
        minLatencyMs = Long.MAX_VALUE;
        maxLatencyMs = 0;
        latencyCount = 0;
        latencyTotalMs = 0;
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
