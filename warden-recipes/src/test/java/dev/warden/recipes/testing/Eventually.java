package dev.warden.recipes.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Polls a condition in tests that wait for another session's effect to show. */
public final class Eventually {
    private Eventually() {
    }

    public static void holds(Duration timeout, BooleanSupplier condition, Supplier<String> description) {
        long deadlineNs = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadlineNs) {
                throw new AssertionError("not within " + timeout.toMillis() + " ms: " + description.get());
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            }
        }
    }
}
