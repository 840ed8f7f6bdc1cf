package dev.warden.server.console;

import dev.warden.server.net.ServerContext;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The figures behind the console's live charts, read once a second by the page: running totals
 * (requests answered and their summed latency, so the page draws throughput and the average
 * latency of each interval from two readings), the latency percentiles of the reads and writes
 * of the last second ({@link LatencyWindow}) and since the start or {@code srst} (as mntr gives
 * them), and the requests outstanding now.
 */
final class StatsApi {
    private final ServerContext server;
    private final LatencyWindow latencies;

    StatsApi(ServerContext server, LatencyWindow latencies) {
        this.server = server;
        this.latencies = latencies;
    }

    Map<String, Object> stats() {
        var stats = server.stats();
        var latency = stats.latency();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("time_ms", server.clock().wallTimeMs());
        out.put("requests", latency.count());
        out.put("latency_total_ms", latency.totalMs());
        out.put("outstanding", server.pipeline().outstanding());
        percentiles(out, "read", latencies.reads());
        percentiles(out, "write", latencies.writes());
        out.put("read_p99_ms_since_start", stats.latencyPercentileMs(false, 0.99));
        out.put("write_p99_ms_since_start", stats.latencyPercentileMs(true, 0.99));
        out.put("packets_received", stats.packetsReceived());
        out.put("packets_sent", stats.packetsSent());
        out.put("connections", server.registry().size());
        out.put("node_count", server.stateMachine().tree().nodeCount());
        out.put("watch_count", server.watches().watchCount());
        out.put("last_zxid", TreeApi.hex(server.stateMachine().tree().lastAppliedZxid()));
        return out;
    }

    private static void percentiles(Map<String, Object> out, String kind, LatencyWindow.Percentiles last) {
        out.put(kind + "s_last_second", last.count());
        out.put(kind + "_p50_ms", last.p50Ms());
        out.put(kind + "_p95_ms", last.p95Ms());
        out.put(kind + "_p99_ms", last.p99Ms());
    }
}
