package dev.warden.consensus;

/** Internal consistency checks; they stay on, because a broken invariant here means lost data. */
final class Invariants {
    private Invariants() {
    }

    static void check(boolean condition, String message) {
        if (!condition) {
            throw violated(message);
        }
    }

    /**
     * The exception for a broken invariant, for checks on the per-entry path that test the
     * condition themselves so the message (zxids in hex) is only built when it is needed.
     */
    static IllegalStateException violated(String message) {
        return new IllegalStateException("invariant violated: " + message);
    }
}
