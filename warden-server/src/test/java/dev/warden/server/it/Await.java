package dev.warden.server.it;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** Bounded waiting: every wait in the suites has a deadline, and polling is only a fallback. */
final class Await {
    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
    private static final long POLL_INTERVAL_MS = 20;

    private Await() {
    }

    /** Polls {@code condition} until it holds; fails with {@code what} after {@code timeout}. */
    static void until(String what, Duration timeout, CheckedCondition condition) throws Exception {
        long deadlineNs = System.nanoTime() + timeout.toNanos();
        while (!condition.holds()) {
            if (System.nanoTime() - deadlineNs > 0) {
                throw new AssertionError("timed out after " + timeout.toMillis() + " ms waiting for: " + what);
            }
            Thread.sleep(POLL_INTERVAL_MS);
        }
    }

    static void until(String what, CheckedCondition condition) throws Exception {
        until(what, DEFAULT_TIMEOUT, condition);
    }

    /** Takes the next element or fails after the default timeout. */
    static <T> T next(String what, BlockingQueue<T> queue) throws InterruptedException {
        T item = queue.poll(DEFAULT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        if (item == null) {
            throw new AssertionError("timed out waiting for: " + what);
        }
        return item;
    }

    /** Asserts that nothing arrives within {@code quietMs}, for "no further event" checks. */
    static <T> void nothingWithin(String what, BlockingQueue<T> queue, long quietMs) throws InterruptedException {
        T item = queue.poll(quietMs, TimeUnit.MILLISECONDS);
        if (item != null) {
            throw new AssertionError("unexpected " + what + ": " + item);
        }
    }

    static void untilTrue(String what, BooleanSupplier condition) throws Exception {
        until(what, condition::getAsBoolean);
    }

    @FunctionalInterface
    interface CheckedCondition {
        boolean holds() throws Exception;
    }
}
