package dev.warden.server.pipeline;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The client requests a server holds between their arrival and their answer, against
 * {@code globalOutstandingLimit}: past the limit connections stop being read, and when the count
 * falls back below it {@code belowLimit} resumes them. Thread-safe.
 */
public final class OutstandingRequests {
    private final AtomicInteger count = new AtomicInteger();
    private final int limit;
    private final Runnable belowLimit;

    public OutstandingRequests(int limit, Runnable belowLimit) {
        this.limit = limit;
        this.belowLimit = belowLimit;
    }

    /** One more request; false if the server is now at or over the limit. */
    public boolean enter() {
        return count.incrementAndGet() < limit;
    }

    /** One more request, only if there is none: the caller may then run it alone. */
    public boolean enterIfNone() {
        return count.compareAndSet(0, 1);
    }

    /** A request was answered (or dropped); resumes the readers when the count falls below the limit. */
    public void leave() {
        if (count.decrementAndGet() == limit - 1) {
            belowLimit.run();
        }
    }

    public boolean isOverLimit() {
        return count.get() >= limit;
    }

    public int count() {
        return count.get();
    }
}
