package dev.warden.bench.compare;

import dev.warden.bench.etcd.EtcdCluster;
import dev.warden.bench.etcd.EtcdLoad;
import dev.warden.bench.etcd.EtcdLoadSpec;
import dev.warden.bench.etcd.EtcdWorkload;
import dev.warden.bench.load.LoadResult;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;

/**
 * etcd as the comparison's third target in one topology: as many members as the topology has, on
 * loopback, started after the two ZooKeeper-protocol deployments and killed with them. Each
 * scenario with an etcd counterpart ({@link EtcdWorkload#pairedWith}) runs it in the scenario's
 * shape; TLS topologies are not run against etcd.
 */
final class EtcdTarget implements AutoCloseable {
    private final Topology topology;
    private final CompareOptions options;
    private final PrintWriter out;
    private EtcdCluster cluster;
    /** Why etcd has no figures in this topology; null while it serves. */
    private String unavailable;

    EtcdTarget(Topology topology, CompareOptions options, PrintWriter out) {
        this.topology = topology;
        this.options = options;
        this.out = out;
    }

    void start() throws InterruptedException {
        if (topology.tls()) {
            unavailable = "not run: the etcd members here serve plaintext only";
            return;
        }
        Path dir = options.workDir().resolve(topology.name().toLowerCase() + "-etcd");
        say("starting etcd, %s", topology.title());
        try {
            cluster = EtcdCluster.start(topology.members(), dir, options.readyTimeoutMs());
            say("etcd serving on %s", String.join(",", cluster.endpoints()));
        } catch (IOException e) {
            unavailable = "not available: " + e.getMessage();
            say("etcd, %s: %s", topology.title(), unavailable);
        }
    }

    boolean hasCounterpart(Scenario scenario) {
        return EtcdWorkload.pairedWith(scenario.name()).isPresent();
    }

    /** One measured run of the scenario's counterpart; empty if etcd is down or the run failed. */
    Optional<LoadResult> runOnce(Scenario scenario, int round) throws InterruptedException {
        if (cluster == null) {
            return Optional.empty();
        }
        if (!cluster.deadMembers().isEmpty()) {
            unavailable = "died: " + String.join("; ", cluster.deadMembers());
            say("etcd, %s: %s", topology.title(), unavailable);
            cluster.close();
            cluster = null;
            return Optional.empty();
        }
        EtcdWorkload workload = EtcdWorkload.pairedWith(scenario.name()).orElseThrow();
        String roundNote = options.rounds() > 1 ? ", round " + (round + 1) + " of " + options.rounds() : "";
        say("%s, etcd: %s for %s (%s)%s", topology.title(), workload.title(), scenario.name(), scenario.load(),
                roundNote);
        try {
            LoadResult result = new EtcdLoad(out).run(spec(scenario, workload));
            say("%s", result.describe());
            say("etcd %s %s", topology.name().toLowerCase(), result.summaryLine());
            return Optional.of(result);
        } catch (IOException | RuntimeException e) {
            say("%s, etcd: %s failed: %s", topology.title(), workload.title(), e);
            return Optional.empty();
        }
    }

    private EtcdLoadSpec spec(Scenario scenario, EtcdWorkload workload) {
        int clients = switch (workload) {
            case LOCK -> scenario.participants();
            case WATCH_FANOUT -> scenario.participants() + 1; // the watchers and one writer
            default -> scenario.sessions();
        };
        return new EtcdLoadSpec(cluster.endpoints(), workload, "/warden-bench-" + scenario.name(), clients,
                scenario.inFlightPerSession(), scenario.valueSizeBytes(), scenario.keyCount(),
                options.warmupSeconds(), options.measureSeconds());
    }

    /** Why the scenario has fewer etcd runs than rounds, or null when it has them all or needs none. */
    String missingFor(Scenario scenario, int runs) {
        if (!hasCounterpart(scenario) || runs == options.rounds()) {
            return null;
        }
        if (unavailable != null) {
            return unavailable;
        }
        return runs == 0 ? "failed (see the run's output)" : "failed in " + (options.rounds() - runs) + " of "
                + options.rounds() + " rounds";
    }

    @Override
    public void close() throws InterruptedException {
        if (cluster != null) {
            cluster.close();
            cluster = null;
        }
    }

    private void say(String format, Object... args) {
        out.printf(format + "%n", args);
        out.flush();
    }
}
