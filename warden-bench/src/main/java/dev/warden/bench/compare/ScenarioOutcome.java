package dev.warden.bench.compare;

import dev.warden.bench.load.LoadResult;
import dev.warden.cli.cluster.Flavour;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * What one scenario gave in one topology: every run of each flavour that ran (one per round), and
 * for each flavour that did not, why ("not available: ..."). A flavour's figure is the median of
 * its runs ({@link LoadResult#medianOf}). With etcd as a third target, its runs of the scenario's
 * counterpart ({@code etcdRuns}, round by round) or why there are none ({@code etcdMissing}, null
 * when etcd was not asked for or the scenario has no counterpart).
 */
public record ScenarioOutcome(Topology topology, Scenario scenario, Map<Flavour, List<LoadResult>> runs,
                      Map<Flavour, String> missing, List<LoadResult> etcdRuns, String etcdMissing) {

    /** An outcome of Warden and Apache ZooKeeper only. */
    public ScenarioOutcome(Topology topology, Scenario scenario, Map<Flavour, List<LoadResult>> runs,
                   Map<Flavour, String> missing) {
        this(topology, scenario, runs, missing, List.of(), null);
    }

    public ScenarioOutcome {
        Map<Flavour, List<LoadResult>> copy = new EnumMap<>(Flavour.class);
        runs.forEach((flavour, list) -> {
            if (!list.isEmpty()) {
                copy.put(flavour, List.copyOf(list));
            }
        });
        runs = copy.isEmpty() ? Map.of() : Map.copyOf(copy);
        missing = missing.isEmpty() ? Map.of() : Map.copyOf(new EnumMap<>(missing));
        etcdRuns = List.copyOf(etcdRuns);
    }

    /** etcd's median figures over its runs, if it ran. */
    public Optional<LoadResult> etcdResult() {
        return etcdRuns.isEmpty() ? Optional.empty() : Optional.of(LoadResult.medianOf(etcdRuns));
    }

    /** Warden's figure divided by etcd's (medians), when both ran and etcd's is not zero. */
    public OptionalDouble etcdRatio(Target.Metric metric) {
        LoadResult warden = results().get(Flavour.WARDEN);
        Optional<LoadResult> etcd = etcdResult();
        if (warden == null || etcd.isEmpty()) {
            return OptionalDouble.empty();
        }
        return quotient(value(warden, metric), value(etcd.get(), metric));
    }

    /** Warden's ops/s over etcd's, round by round; empty unless both ran every round. */
    public List<Double> etcdThroughputRatiosPerRound() {
        List<LoadResult> warden = runs.getOrDefault(Flavour.WARDEN, List.of());
        if (warden.size() != etcdRuns.size()) {
            return List.of();
        }
        List<Double> ratios = new ArrayList<>();
        for (int round = 0; round < warden.size(); round++) {
            double e = etcdRuns.get(round).opsPerSecond();
            if (e == 0) {
                return List.of();
            }
            ratios.add(warden.get(round).opsPerSecond() / e);
        }
        return ratios;
    }

    /** Each flavour's median figures over its runs. */
    public Map<Flavour, LoadResult> results() {
        Map<Flavour, LoadResult> medians = new EnumMap<>(Flavour.class);
        runs.forEach((flavour, list) -> medians.put(flavour, LoadResult.medianOf(list)));
        return medians;
    }

    /**
     * Warden's ops/s over Apache's, round by round: the two runs of a round ran back to back, so
     * these show how far the ratio moves with the machine. Empty unless both ran every round.
     */
    public List<Double> throughputRatiosPerRound() {
        List<LoadResult> warden = runs.getOrDefault(Flavour.WARDEN, List.of());
        List<LoadResult> apache = runs.getOrDefault(Flavour.APACHE, List.of());
        if (warden.size() != apache.size()) {
            return List.of();
        }
        List<Double> ratios = new ArrayList<>();
        for (int round = 0; round < warden.size(); round++) {
            double a = apache.get(round).opsPerSecond();
            if (a == 0) {
                return List.of();
            }
            ratios.add(warden.get(round).opsPerSecond() / a);
        }
        return ratios;
    }

    /** Warden's figure divided by Apache's, when both ran and Apache's is not zero. */
    public OptionalDouble ratio(Target.Metric metric) {
        Map<Flavour, LoadResult> medians = results();
        LoadResult warden = medians.get(Flavour.WARDEN);
        LoadResult apache = medians.get(Flavour.APACHE);
        if (warden == null || apache == null) {
            return OptionalDouble.empty();
        }
        return quotient(value(warden, metric), value(apache, metric));
    }

    /** Warden's figure over the other's; none when the other is zero or either was not measured. */
    private static OptionalDouble quotient(double warden, double other) {
        return other == 0 || Double.isNaN(other) || Double.isNaN(warden)
                ? OptionalDouble.empty() : OptionalDouble.of(warden / other);
    }

    static double value(LoadResult result, Target.Metric metric) {
        return switch (metric) {
            case THROUGHPUT -> result.opsPerSecond();
            case P50 -> result.p50Us();
            case P99 -> result.p99Us();
            case P999 -> result.p999Us();
            case SERVER_CPU -> result.serverCpuUsPerOp();
        };
    }
}
