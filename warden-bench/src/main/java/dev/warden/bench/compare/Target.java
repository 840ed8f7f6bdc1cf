package dev.warden.bench.compare;

import java.math.BigDecimal;
import java.util.Locale;

/**
 * A goal for Warden/Apache on one metric: at least the ratio for throughput, at most for latency
 * and for the servers' CPU per operation.
 */
public record Target(Metric metric, double ratio) {
    /** What a target is about; throughput is better higher, latencies and CPU lower. */
    public enum Metric {
        THROUGHPUT("ops/s"),
        P50("p50"),
        P99("p99"),
        P999("p99.9"),
        /** The servers' CPU time per operation over the measured window. */
        SERVER_CPU("server CPU/op");

        private final String label;

        Metric(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    public Target {
        if (!(ratio > 0)) {
            throw new IllegalArgumentException("target ratio must be > 0, not " + ratio);
        }
    }

    public static Target throughputAtLeast(double ratio) {
        return new Target(Metric.THROUGHPUT, ratio);
    }

    public static Target latencyAtMost(Metric metric, double ratio) {
        return new Target(metric, ratio);
    }

    /** Warden's servers spend at most {@code ratio} of Apache's CPU time per operation. */
    public static Target serverCpuAtMost(double ratio) {
        return new Target(Metric.SERVER_CPU, ratio);
    }

    public boolean isMetBy(double measuredRatio) {
        return metric == Metric.THROUGHPUT ? measuredRatio >= ratio : measuredRatio <= ratio;
    }

    public String describe() {
        return String.format(Locale.ROOT, "%s %s %s×", metric.label(), metric == Metric.THROUGHPUT ? "≥" : "≤",
                trim(ratio));
    }

    /** "2", "0.6", "0.33": at most two decimals, without trailing zeros. */
    static String trim(double value) {
        return new BigDecimal(String.format(Locale.ROOT, "%.2f", value)).stripTrailingZeros().toPlainString();
    }
}
