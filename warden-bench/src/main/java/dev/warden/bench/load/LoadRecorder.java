package dev.warden.bench.load;

import dev.warden.protocol.ErrorCode;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Collects latencies (microseconds) and errors from many callback threads at once. Latencies go to
 * an HdrHistogram {@link Recorder}; the runner takes interval histograms at phase boundaries, so
 * warm-up samples never reach the measured total. Errors count only while measuring.
 */
public final class LoadRecorder {
    /** One minute: anything slower is clamped, so one stuck request cannot break the histogram. */
    static final long HIGHEST_LATENCY_US = TimeUnit.MINUTES.toMicros(1);

    private final Recorder latencies = new Recorder(HIGHEST_LATENCY_US, 3);
    private final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
    private final LongAdder errorsThisInterval = new LongAdder();
    private volatile boolean measuring;

    /** Records one successful operation that started at {@code startNs} (System.nanoTime). */
    public void success(long startNs) {
        long latencyUs = TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - startNs);
        latencies.recordValue(Math.max(0, Math.min(latencyUs, HIGHEST_LATENCY_US)));
    }

    /** Records one failed operation by its ZooKeeper error code. */
    public void error(int rc) {
        ErrorCode code = ErrorCode.of(rc);
        error(code == null ? "rc" + rc : code.name());
    }

    /** Records one failed operation under a name (for failures that carry no error code). */
    public void error(String name) {
        errorsThisInterval.increment();
        if (measuring) {
            errors.computeIfAbsent(name, k -> new LongAdder()).increment();
        }
    }

    void startMeasuring() {
        measuring = true;
    }

    void stopMeasuring() {
        measuring = false;
    }

    /** Latencies recorded since the previous call. */
    Histogram takeInterval() {
        return latencies.getIntervalHistogram();
    }

    long takeIntervalErrors() {
        return errorsThisInterval.sumThenReset();
    }

    /** Errors counted while measuring, by code name, sorted. */
    Map<String, Long> errorsByCode() {
        Map<String, Long> out = new TreeMap<>();
        errors.forEach((name, count) -> out.put(name, count.sum()));
        return out;
    }
}
