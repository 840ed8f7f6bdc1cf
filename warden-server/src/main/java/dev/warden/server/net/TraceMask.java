package dev.warden.server.net;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * ZooKeeper's trace mask: which kinds of client traffic are logged at TRACE level (logger
 * {@code dev.warden.server.trace}, which the logging configuration must enable at TRACE to show
 * anything). Read with the {@code gtmk} word and set with {@code stmk}, as in ZooKeeper; the bits
 * are ZooKeeper's.
 */
public final class TraceMask {
    /** Client requests other than pings. */
    public static final long CLIENT_REQUEST = 0b10;
    /** Client pings. */
    public static final long CLIENT_PING = 0b1000;
    /** Sessions created, re-attached and closed. */
    public static final long SESSION = 0b100000;
    /** Watch events delivered to clients. */
    public static final long WATCH_EVENT = 0b1000000;
    /** ZooKeeper's default: requests, packets from the leader and sessions (0b100110010). */
    public static final long DEFAULT = 306;

    static final Logger TRACE = LoggerFactory.getLogger("dev.warden.server.trace");

    private volatile long mask = DEFAULT;

    public long get() {
        return mask;
    }

    public void set(long newMask) {
        mask = newMask;
    }

    /** Whether traffic of {@code kind} is to be traced now. */
    boolean tracing(long kind) {
        return (mask & kind) != 0 && TRACE.isTraceEnabled();
    }
}
