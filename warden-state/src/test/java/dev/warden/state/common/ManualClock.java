package dev.warden.state.common;

import dev.warden.state.common.Clock;

/** A clock tests move by hand. */
public final class ManualClock implements Clock {
    private long nowMs;

    public ManualClock(long startMs) {
        this.nowMs = startMs;
    }

    public synchronized void advance(long ms) {
        nowMs += ms;
    }

    @Override
    public synchronized long wallTimeMs() {
        return nowMs;
    }

    @Override
    public synchronized long monotonicMs() {
        return nowMs;
    }
}
