package dev.warden.server.admin;

import dev.warden.state.common.Clock;

/**
 * ZooKeeper's limit on the snapshot and restore commands, one of these for each: at most one per
 * {@code admin.rateLimiterIntervalInMS} (5 minutes by default), counted from the last one let
 * through, across all admin connections. Both are heavy (a snapshot writes the whole state; a
 * restore loads it and every client reconnects), and a script retrying in a loop must not keep
 * the server at it.
 */
final class AdminRateLimit {
    private final long intervalMs;
    private final Clock clock;
    private boolean used;
    private long lastAllowedMs;

    AdminRateLimit(long intervalMs, Clock clock) {
        this.intervalMs = intervalMs;
        this.clock = clock;
    }

    long intervalMs() {
        return intervalMs;
    }

    /** 0 if the command may run now (and counts it), else how many milliseconds until it may. */
    synchronized long tryAcquire() {
        long nowMs = clock.monotonicMs();
        if (used && intervalMs > 0 && nowMs - lastAllowedMs < intervalMs) {
            return intervalMs - (nowMs - lastAllowedMs);
        }
        used = true;
        lastAllowedMs = nowMs;
        return 0;
    }
}
