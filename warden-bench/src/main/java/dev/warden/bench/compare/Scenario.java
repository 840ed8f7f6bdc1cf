package dev.warden.bench.compare;

import dev.warden.bench.load.ClientKind;
import dev.warden.bench.load.LoadSpec;
import dev.warden.bench.load.Workload;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One row of the comparison: a workload with its load settings, and the targets it has in each
 * topology (none where the issue sets none).
 *
 * @param name  a short name, also the node under which the scenario keeps its data
 * @param load  how the load is shaped, e.g. "16×32, 1 KiB"
 */
public record Scenario(String name, String load, Workload workload, int sessions, int inFlightPerSession,
                       int valueSizeBytes, int keyCount, int readPercent, int participants,
                       Map<Topology, List<Target>> targets) {

    public Scenario {
        Objects.requireNonNull(name, "name");
        if (!name.matches("[A-Za-z0-9-]+")) {
            throw new IllegalArgumentException("scenario name '" + name + "' must be letters, digits and dashes");
        }
        targets = Map.copyOf(targets);
    }

    public List<Target> targetsIn(Topology topology) {
        return targets.getOrDefault(topology, List.of());
    }

    /** The load run for this scenario against {@code connectString}. */
    public LoadSpec spec(String connectString, ClientKind client, int warmupSeconds, int measureSeconds) {
        LoadSpec defaults = LoadSpec.defaults(connectString, workload);
        return new LoadSpec(connectString, client, workload, sessions, inFlightPerSession, valueSizeBytes, keyCount,
                readPercent, participants, participants, warmupSeconds, measureSeconds,
                defaults.sessionTimeoutMs(), "/warden-bench-" + name, defaults.maxFrameBytes());
    }
}
