package dev.warden.state.common;

/** Time, injected so the core can be driven by a simulated clock. */
public interface Clock {
    /** Wall-clock milliseconds since the epoch: znode ctime/mtime. */
    long wallTimeMs();

    /** Monotonic milliseconds: timeouts and expiry. */
    long monotonicMs();

    Clock SYSTEM = new Clock() {
        @Override
        public long wallTimeMs() {
            return System.currentTimeMillis();
        }

        @Override
        public long monotonicMs() {
            return System.nanoTime() / 1_000_000L;
        }
    };
}
