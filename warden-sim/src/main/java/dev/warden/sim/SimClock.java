package dev.warden.sim;

import dev.warden.state.common.Clock;
import java.util.function.LongSupplier;

/**
 * The server's clock driven by simulated time, so znode times and session bookkeeping are the
 * same in every replay. Wall time starts at a fixed instant; monotonic time is the simulated clock.
 */
final class SimClock implements Clock {
    /** 2020-01-01T00:00:00Z: any fixed instant works, it only has to be the same in every run. */
    static final long WALL_BASE_MS = 1_577_836_800_000L;

    private final LongSupplier nowMs;

    SimClock(LongSupplier nowMs) {
        this.nowMs = nowMs;
    }

    @Override
    public long wallTimeMs() {
        return WALL_BASE_MS + nowMs.getAsLong();
    }

    @Override
    public long monotonicMs() {
        return nowMs.getAsLong();
    }
}
