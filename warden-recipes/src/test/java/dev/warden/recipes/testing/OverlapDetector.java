package dev.warden.recipes.testing;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts holders inside a critical section and remembers the worst overlap seen. Exclusive
 * holders must never overlap; shared holders may, but never together with an exclusive one.
 */
public final class OverlapDetector {
    private final AtomicInteger exclusiveInside = new AtomicInteger();
    private final AtomicInteger sharedInside = new AtomicInteger();
    private final AtomicInteger violations = new AtomicInteger();
    private final AtomicInteger maxShared = new AtomicInteger();

    public void enterExclusive() {
        if (exclusiveInside.incrementAndGet() != 1 || sharedInside.get() != 0) {
            violations.incrementAndGet();
        }
    }

    public void exitExclusive() {
        exclusiveInside.decrementAndGet();
    }

    public void enterShared() {
        int shared = sharedInside.incrementAndGet();
        maxShared.accumulateAndGet(shared, Math::max);
        if (exclusiveInside.get() != 0) {
            violations.incrementAndGet();
        }
    }

    public void exitShared() {
        sharedInside.decrementAndGet();
    }

    public int violations() {
        return violations.get();
    }

    /** Most shared holders seen inside at once (shows that sharing happened). */
    public int maxShared() {
        return maxShared.get();
    }
}
