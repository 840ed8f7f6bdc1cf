package dev.warden.bench.load;

import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;

/**
 * The measured part of one run. Latencies are in microseconds.
 *
 * @param operations successful operations in the measured window
 * @param measuredMs length of the measured window
 * @param errors     failed operations by error code name
 */
public record LoadResult(String workload, long operations, long measuredMs, double opsPerSecond,
                         long p50Us, long p90Us, long p99Us, long p999Us, long maxUs,
                         Map<String, Long> errors) {

    public LoadResult {
        errors = Map.copyOf(errors);
    }

    static LoadResult of(String workload, Histogram measured, long measuredMs, Map<String, Long> errors) {
        long count = measured.getTotalCount();
        double opsPerSecond = measuredMs == 0 ? 0 : count * 1000.0 / measuredMs;
        return new LoadResult(workload, count, measuredMs, opsPerSecond,
                measured.getValueAtPercentile(50), measured.getValueAtPercentile(90),
                measured.getValueAtPercentile(99), measured.getValueAtPercentile(99.9),
                measured.getMaxValue(), errors);
    }

    public long errorCount() {
        return errors.values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * One line of JSON, prefixed {@code SUMMARY }, for scripts: field names carry their units.
     * Error code names are enum constants, so they need no escaping.
     */
    public String summaryLine() {
        String errorJson = errors.entrySet().stream()
                .map(e -> "\"" + e.getKey() + "\":" + e.getValue())
                .collect(Collectors.joining(",", "{", "}"));
        return String.format(Locale.ROOT,
                "SUMMARY {\"workload\":\"%s\",\"operations\":%d,\"measuredMs\":%d,\"opsPerSecond\":%.1f,"
                        + "\"p50Us\":%d,\"p90Us\":%d,\"p99Us\":%d,\"p999Us\":%d,\"maxUs\":%d,\"errors\":%s}",
                workload, operations, measuredMs, opsPerSecond, p50Us, p90Us, p99Us, p999Us, maxUs, errorJson);
    }

    /** A human-readable block for the end of a run. */
    public String describe() {
        return String.format(Locale.ROOT,
                "%s: %,d ops in %.1f s = %,.0f ops/s; latency ms p50 %.3f  p90 %.3f  p99 %.3f  p99.9 %.3f  max %.3f;"
                        + " errors %s",
                workload, operations, measuredMs / 1000.0, opsPerSecond, p50Us / 1000.0, p90Us / 1000.0,
                p99Us / 1000.0, p999Us / 1000.0, maxUs / 1000.0, errors.isEmpty() ? "none" : errors);
    }
}
