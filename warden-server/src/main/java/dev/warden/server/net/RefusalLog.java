package dev.warden.server.net;

import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * Logs why the peer and client ports refused connections without letting whoever opens them flood the log:
 * at most {@code warningsPerWindow} WARNs per window, the rest at DEBUG. The next WARN after a
 * quiet spell says how many were logged at DEBUG meanwhile, so a sustained stream of bad
 * connections still shows as one line per window with its count. Thread-safe.
 */
public final class RefusalLog {
    static final int WARNINGS_PER_WINDOW = 10;
    static final long WINDOW_MS = 60_000;

    private final int warningsPerWindow;
    private final long windowMs;
    private final LongSupplier nowMs;
    private long windowStartMs;
    private int warningsInWindow;
    private long demoted;

    RefusalLog(int warningsPerWindow, long windowMs, LongSupplier nowMs) {
        if (warningsPerWindow < 1 || windowMs < 1) {
            throw new IllegalArgumentException("refusal log needs at least one warning per window of at least 1 ms");
        }
        this.warningsPerWindow = warningsPerWindow;
        this.windowMs = windowMs;
        this.nowMs = nowMs;
        this.windowStartMs = nowMs.getAsLong();
    }

    /** Ten WARNs a minute, on the monotonic clock. */
    public static RefusalLog standard() {
        return new RefusalLog(WARNINGS_PER_WINDOW, WINDOW_MS, () -> System.nanoTime() / 1_000_000);
    }

    /** Logs {@code message} at WARN if this window still has room, otherwise at DEBUG. */
    public void refused(Logger log, String message) {
        String warning = warningFor(message);
        if (warning != null) {
            log.warn(warning);
        } else {
            log.debug(message);
        }
    }

    /** The WARN line for {@code message}, or null when the window's WARNs are used up. */
    synchronized String warningFor(String message) {
        long now = nowMs.getAsLong();
        if (now - windowStartMs >= windowMs) {
            windowStartMs = now;
            warningsInWindow = 0;
        }
        if (warningsInWindow >= warningsPerWindow) {
            demoted++;
            return null;
        }
        warningsInWindow++;
        if (demoted == 0) {
            return message;
        }
        String warning = message + " (" + demoted + (demoted == 1 ? " refusal" : " refusals")
                + " since the last WARN logged at DEBUG; at most " + warningsPerWindow + " WARNs per "
                + (windowMs % 1000 == 0 ? windowMs / 1000 + " s)" : windowMs + " ms)");
        demoted = 0;
        return warning;
    }
}
