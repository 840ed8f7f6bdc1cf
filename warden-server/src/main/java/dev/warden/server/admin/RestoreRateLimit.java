package dev.warden.server.admin;

import dev.warden.server.common.Clock;

/**
 * ZooKeeper's limit on the restore command: at most one per {@code admin.rateLimiterIntervalInMS}
 * (5 minutes by default), counted from the last one let through, across all admin connections.
 * A restore is heavy (the whole state is loaded and every client reconnects), and a script
 * retrying in a loop must not keep the ensemble restoring.
 */
final class RestoreRateLimit {
    private final long intervalMs;
    private final Clock clock;
    private boolean used;
    private long lastAllowedMs;

    RestoreRateLimit(long intervalMs, Clock clock) {
        this.intervalMs = intervalMs;
        this.clock = clock;
    }

    long intervalMs() {
        return intervalMs;
    }

    /** 0 if a restore may run now (and counts it), else how many milliseconds until one may. */
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
