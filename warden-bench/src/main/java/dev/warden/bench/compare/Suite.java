package dev.warden.bench.compare;

import static dev.warden.bench.compare.Target.latencyAtMost;
import static dev.warden.bench.compare.Target.serverCpuAtMost;
import static dev.warden.bench.compare.Target.throughputAtLeast;

import dev.warden.bench.compare.Target.Metric;
import dev.warden.bench.load.Workload;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** The scenarios the side-by-side runner measures, with the targets from the benchmark issue. */
public final class Suite {
    private static final int KIB = 1024;
    /** One read in flight: with the disk's sync latency, the floor under {@link #WRITE_ONE_BY_ONE}. */
    public static final String READ_ONE_BY_ONE = "getData1x1";
    /** One write in flight: the latency target the floor is set against. */
    public static final String WRITE_ONE_BY_ONE = "setData1x1";

    private Suite() {
    }

    public static List<Scenario> standard() {
        Target p999Half = latencyAtMost(Metric.P999, 0.5);
        Map<Topology, List<Target>> none = Map.of();
        return List.of(
                loaded("setData", Workload.SET_DATA, Map.of(
                        Topology.STANDALONE, List.of(throughputAtLeast(2)),
                        Topology.ENSEMBLE3, List.of(throughputAtLeast(5), p999Half),
                        Topology.ENSEMBLE3_TLS, List.of(throughputAtLeast(2.5)))),
                loaded("getData", Workload.GET_DATA, Map.of(
                        Topology.STANDALONE, List.of(throughputAtLeast(1.5)),
                        Topology.ENSEMBLE3, List.of(throughputAtLeast(1.5), p999Half),
                        Topology.ENSEMBLE3_TLS, List.of(throughputAtLeast(1.5)))),
                loaded("exists", Workload.EXISTS, none),
                new Scenario("mixed90", "16×32, 1 KiB, 90 % reads", Workload.MIXED, 16, 32, KIB, 1000, 90, 1,
                        Map.of(Topology.ENSEMBLE3, List.of(throughputAtLeast(2), p999Half))),
                loaded("createDelete", Workload.CREATE_DELETE,
                        Map.of(Topology.ENSEMBLE3, List.of(throughputAtLeast(5), p999Half))),
                // versioned setData, each of the 512 requests in flight on a key of its own: the
                // compare-and-set that etcd's txn on a mod revision is set against
                new Scenario("casSetData", "16×32, 1 KiB, a key per request", Workload.CAS_SET_DATA, 16, 32, KIB,
                        16 * 32, 0, 1, none),
                new Scenario("lock8", "8 clients", Workload.LOCK, 1, 1, 0, 1, 0, 8,
                        bothPlaintext(List.of(throughputAtLeast(2.5)))),
                new Scenario("fanout100", "100 watchers, 1 KiB", Workload.FANOUT, 1, 1, KIB, 1, 0, 100,
                        bothPlaintext(List.of(throughputAtLeast(3)))),
                // the load client and the server share the machine, so sessions/s is the client's
                // limit as much as the server's: the target is the servers' CPU per session; over
                // TLS every session is a handshake too, and the target is new TLS sessions per second
                new Scenario("sessionStorm16", "16 workers", Workload.SESSION_STORM, 16, 1, 0, 1, 0, 1, Map.of(
                        Topology.STANDALONE, List.of(serverCpuAtMost(1.0 / 3)),
                        Topology.ENSEMBLE3, List.of(serverCpuAtMost(1.0 / 3)),
                        Topology.ENSEMBLE3_TLS, List.of(throughputAtLeast(1.5)))),
                // the round trip of a read with nothing queued (see DurableWriteFloor)
                new Scenario(READ_ONE_BY_ONE, "1×1, 1 KiB", Workload.GET_DATA, 1, 1, KIB, 1000, 0, 1, none),
                new Scenario(WRITE_ONE_BY_ONE, "1×1, 1 KiB", Workload.SET_DATA, 1, 1, KIB, 1000, 0, 1, Map.of(
                        Topology.STANDALONE, List.of(latencyAtMost(Metric.P50, 0.5)),
                        Topology.ENSEMBLE3, List.of(latencyAtMost(Metric.P50, 0.6)))),
                // one session that pipelines its writes, as a client streaming updates does: each
                // server must batch them into shared fsyncs from a single connection (a standalone
                // Warden once ran these one fsync each, at a twentieth of its 16×32 throughput)
                new Scenario("setData1x256", "1×256, 1 KiB", Workload.SET_DATA, 1, 256, KIB, 1000, 0, 1, none),
                // last: a server may run out of heap here, and a dead server is restarted, but its
                // garbage and page cache should not weigh on the scenarios with targets either
                new Scenario("large1MiB", "4×2, 1 MiB", Workload.LARGE, 4, 2, Workload.LARGE_VALUE_BYTES, 16, 0, 1,
                        none));
    }

    /** The same targets standalone and with three members, in plaintext. */
    private static Map<Topology, List<Target>> bothPlaintext(List<Target> targets) {
        return Map.of(Topology.STANDALONE, targets, Topology.ENSEMBLE3, targets);
    }

    /** The standard 16 sessions × 32 in flight, 1 KiB values over 1000 keys. */
    private static Scenario loaded(String name, Workload workload, Map<Topology, List<Target>> targets) {
        return new Scenario(name, "16×32, 1 KiB", workload, 16, 32, KIB, 1000, 90, 1, targets);
    }

    /** The standard scenarios with these names, in the order given; a clear error for unknown names. */
    public static List<Scenario> select(List<String> names) {
        List<Scenario> all = standard();
        return names.stream().map(name -> all.stream().filter(s -> s.name().equalsIgnoreCase(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown scenario '" + name + "'; known: "
                        + all.stream().map(Scenario::name).collect(Collectors.joining(", ")))))
                .toList();
    }
}
