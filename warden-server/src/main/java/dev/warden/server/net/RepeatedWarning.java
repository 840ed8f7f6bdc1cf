package dev.warden.server.net;

import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * A warning that may come in floods (bad frames from a fuzzer or a broken client): the first of
 * a window is logged in full, the rest of the window are counted, and the count is logged with
 * the next one after the window ends ("and N more like it in the last 60 s"). So a minute of
 * garbage is two lines, not hundreds, and none is lost from the count.
 */
final class RepeatedWarning {
    static final long WINDOW_MS = 60_000;

    private final Logger log;
    private final LongSupplier clockMs;
    private long windowStartMs = Long.MIN_VALUE;
    private long suppressed;

    RepeatedWarning(Logger log, LongSupplier clockMs) {
        this.log = log;
        this.clockMs = clockMs;
    }

    /** Logs {@code format} with {@code arguments} at WARN, or counts it within the window. */
    synchronized void warn(String format, Object... arguments) {
        long now = clockMs.getAsLong();
        if (windowStartMs != Long.MIN_VALUE && now - windowStartMs < WINDOW_MS) {
            suppressed++;
            return;
        }
        if (suppressed > 0) {
            log.warn("{} more like the warning below in the last {} s", suppressed, (now - windowStartMs) / 1000);
        }
        log.warn(format, arguments);
        windowStartMs = now;
        suppressed = 0;
    }

    /** Warnings counted but not logged yet. */
    synchronized long suppressed() {
        return suppressed;
    }
}
