package dev.warden.consensus;

/** Internal consistency checks; they stay on, because a broken invariant here means lost data. */
final class Invariants {
    private Invariants() {
    }

    static void check(boolean condition, String message) {
        if (!condition) {
            throw new IllegalStateException("invariant violated: " + message);
        }
    }
}
