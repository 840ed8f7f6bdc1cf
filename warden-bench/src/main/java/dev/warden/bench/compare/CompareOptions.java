package dev.warden.bench.compare;

import dev.warden.bench.load.ClientKind;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * One comparison run.
 *
 * @param workDir        where members keep their configuration, data and logs
 * @param readyTimeoutMs how long a deployment may take to serve before it counts as not available
 * @param jitWarmupSeconds unmeasured load each deployment gets once, right after it starts, so the
 *                       first scenario does not measure the JIT compiler instead of the server
 * @param rounds         how many times each scenario runs against each server; the report gives
 *                       the median of the runs
 * @param minFreeDiskBytes before each round, when the work directory's file system has less free
 *                       space than this, both servers are restarted with empty data directories
 *                       (a full run writes tens of GiB of logs, and a full disk stops a server)
 * @param withEtcd       whether etcd (one member standalone, three for the ensembles) runs too, the
 *                       scenarios that have an etcd counterpart against it as a third target
 */
public record CompareOptions(List<Topology> topologies, List<Scenario> scenarios, int warmupSeconds,
                             int measureSeconds, ClientKind client, JvmSettings jvm, Path workDir,
                             long readyTimeoutMs, int jitWarmupSeconds, int rounds,
                             long minFreeDiskBytes, boolean withEtcd) {
    public CompareOptions {
        topologies = List.copyOf(topologies);
        scenarios = List.copyOf(scenarios);
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(jvm, "jvm");
        Objects.requireNonNull(workDir, "workDir");
        if (topologies.isEmpty() || scenarios.isEmpty()) {
            throw new IllegalArgumentException("need at least one topology and one scenario");
        }
        if (warmupSeconds < 0 || measureSeconds <= 0) {
            throw new IllegalArgumentException("warm-up must be >= 0 s and the measured time > 0 s");
        }
        if (jitWarmupSeconds < 0) {
            throw new IllegalArgumentException("JIT warm-up must be >= 0 s");
        }
        if (rounds < 1) {
            throw new IllegalArgumentException("rounds must be at least 1");
        }
        if (minFreeDiskBytes < 0) {
            throw new IllegalArgumentException("minimum free disk space must be >= 0");
        }
        if (readyTimeoutMs <= 0) {
            throw new IllegalArgumentException("ready timeout must be > 0 ms");
        }
    }

    /** A comparison of Warden and Apache ZooKeeper only. */
    public CompareOptions(List<Topology> topologies, List<Scenario> scenarios, int warmupSeconds, int measureSeconds,
                          ClientKind client, JvmSettings jvm, Path workDir, long readyTimeoutMs, int jitWarmupSeconds,
                          int rounds, long minFreeDiskBytes) {
        this(topologies, scenarios, warmupSeconds, measureSeconds, client, jvm, workDir, readyTimeoutMs,
                jitWarmupSeconds, rounds, minFreeDiskBytes, false);
    }
}
