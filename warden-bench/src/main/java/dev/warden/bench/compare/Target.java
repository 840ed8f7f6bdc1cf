package dev.warden.bench.compare;

import java.util.Locale;

/** A goal for Warden/Apache on one metric: at least the ratio for throughput, at most for latency. */
public record Target(Metric metric, double ratio) {
    /** What a target is about; throughput is better higher, latencies lower. */
    public enum Metric {
        THROUGHPUT("ops/s"),
        P50("p50"),
        P99("p99"),
        P999("p99.9");

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

    public boolean isMetBy(double measuredRatio) {
        return metric == Metric.THROUGHPUT ? measuredRatio >= ratio : measuredRatio <= ratio;
    }

    public String describe() {
        return String.format(Locale.ROOT, "%s %s %s×", metric.label(), metric == Metric.THROUGHPUT ? "≥" : "≤",
                trim(ratio));
    }

    static String trim(double value) {
        return value == Math.rint(value) ? String.valueOf((long) value) : String.valueOf(value);
    }
}
