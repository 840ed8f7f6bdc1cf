package dev.warden.bench.compare;

import dev.warden.bench.load.LoadResult;
import java.util.EnumMap;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * What one scenario gave in one topology: a result per flavour that ran, and for each flavour that
 * did not, why ("not available: ...").
 */
public record Outcome(Topology topology, Scenario scenario, Map<Flavour, LoadResult> results,
                      Map<Flavour, String> missing) {

    public Outcome {
        results = results.isEmpty() ? Map.of() : Map.copyOf(new EnumMap<>(results));
        missing = missing.isEmpty() ? Map.of() : Map.copyOf(new EnumMap<>(missing));
    }

    /** Warden's figure divided by Apache's, when both ran and Apache's is not zero. */
    public OptionalDouble ratio(Target.Metric metric) {
        LoadResult warden = results.get(Flavour.WARDEN);
        LoadResult apache = results.get(Flavour.APACHE);
        if (warden == null || apache == null) {
            return OptionalDouble.empty();
        }
        double w = value(warden, metric);
        double a = value(apache, metric);
        return a == 0 ? OptionalDouble.empty() : OptionalDouble.of(w / a);
    }

    static double value(LoadResult result, Target.Metric metric) {
        return switch (metric) {
            case THROUGHPUT -> result.opsPerSecond();
            case P50 -> result.p50Us();
            case P99 -> result.p99Us();
            case P999 -> result.p999Us();
        };
    }
}
