package dev.warden.bench.load;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;

/**
 * The measured part of one run. Latencies are in microseconds.
 *
 * @param operations successful operations in the measured window
 * @param measuredMs length of the measured window
 * @param errors     failed operations by error code name
 * @param serverCpuUsPerOp CPU time the servers' processes spent in the measured window, per
 *                   successful operation; NaN when it was not measured (see {@link ServerCpuMeter})
 */
public record LoadResult(String workload, long operations, long measuredMs, double opsPerSecond,
                         long p50Us, long p90Us, long p99Us, long p999Us, long maxUs,
                         Map<String, Long> errors, double serverCpuUsPerOp) {

    public LoadResult {
        errors = Map.copyOf(errors);
    }

    /** A result without the servers' CPU time. */
    public LoadResult(String workload, long operations, long measuredMs, double opsPerSecond,
                      long p50Us, long p90Us, long p99Us, long p999Us, long maxUs, Map<String, Long> errors) {
        this(workload, operations, measuredMs, opsPerSecond, p50Us, p90Us, p99Us, p999Us, maxUs, errors, Double.NaN);
    }

    /** @param serverCpuNs the servers' CPU time over the window, or -1 when it was not measured */
    static LoadResult of(String workload, Histogram measured, long measuredMs, Map<String, Long> errors,
                         long serverCpuNs) {
        long count = measured.getTotalCount();
        double opsPerSecond = measuredMs == 0 ? 0 : count * 1000.0 / measuredMs;
        double serverCpuUsPerOp = serverCpuNs < 0 || count == 0 ? Double.NaN : serverCpuNs / 1000.0 / count;
        return new LoadResult(workload, count, measuredMs, opsPerSecond,
                measured.getValueAtPercentile(50), measured.getValueAtPercentile(90),
                measured.getValueAtPercentile(99), measured.getValueAtPercentile(99.9),
                measured.getMaxValue(), errors, serverCpuUsPerOp);
    }

    /** Whether the servers' CPU time was measured. */
    public boolean hasServerCpu() {
        return !Double.isNaN(serverCpuUsPerOp);
    }

    /**
     * The median of repeated runs of one workload, figure by figure: each of ops/s, operations,
     * measured time and every percentile is the median of that figure over the runs (the mean of
     * the two middle ones for an even count), so one run that a busy machine slowed or sped up
     * moves none of them. Errors are summed: an error in any run is reported. The servers' CPU per
     * operation is the median over the runs that measured it.
     */
    public static LoadResult medianOf(List<LoadResult> runs) {
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("no runs to take the median of");
        }
        if (runs.size() == 1) {
            return runs.get(0);
        }
        Map<String, Long> errors = new HashMap<>();
        runs.forEach(run -> run.errors().forEach((code, count) -> errors.merge(code, count, Long::sum)));
        return new LoadResult(runs.get(0).workload(), medianLong(runs, LoadResult::operations),
                medianLong(runs, LoadResult::measuredMs), median(runs, LoadResult::opsPerSecond),
                medianLong(runs, LoadResult::p50Us), medianLong(runs, LoadResult::p90Us),
                medianLong(runs, LoadResult::p99Us), medianLong(runs, LoadResult::p999Us),
                medianLong(runs, LoadResult::maxUs), errors, medianServerCpu(runs));
    }

    private static double medianServerCpu(List<LoadResult> runs) {
        List<LoadResult> measured = runs.stream().filter(LoadResult::hasServerCpu).toList();
        return measured.isEmpty() ? Double.NaN : median(measured, LoadResult::serverCpuUsPerOp);
    }

    private static double median(List<LoadResult> runs, ToDoubleFunction<LoadResult> figure) {
        double[] values = runs.stream().mapToDouble(figure).sorted().toArray();
        int middle = values.length / 2;
        return values.length % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
    }

    private static long medianLong(List<LoadResult> runs, ToLongFunction<LoadResult> figure) {
        return Math.round(median(runs, run -> figure.applyAsLong(run)));
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
                        + "\"p50Us\":%d,\"p90Us\":%d,\"p99Us\":%d,\"p999Us\":%d,\"maxUs\":%d,\"errors\":%s%s}",
                workload, operations, measuredMs, opsPerSecond, p50Us, p90Us, p99Us, p999Us, maxUs, errorJson,
                hasServerCpu() ? String.format(Locale.ROOT, ",\"serverCpuUsPerOp\":%.1f", serverCpuUsPerOp) : "");
    }

    /** A human-readable block for the end of a run. */
    public String describe() {
        return String.format(Locale.ROOT,
                "%s: %,d ops in %.1f s = %,.0f ops/s; latency ms p50 %.3f  p90 %.3f  p99 %.3f  p99.9 %.3f  max %.3f;"
                        + " errors %s%s",
                workload, operations, measuredMs / 1000.0, opsPerSecond, p50Us / 1000.0, p90Us / 1000.0,
                p99Us / 1000.0, p999Us / 1000.0, maxUs / 1000.0, errors.isEmpty() ? "none" : errors,
                hasServerCpu() ? String.format(Locale.ROOT, "; server CPU %.1f µs/op", serverCpuUsPerOp) : "");
    }
}
