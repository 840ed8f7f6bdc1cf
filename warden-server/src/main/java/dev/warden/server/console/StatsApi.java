package dev.warden.server.console;

import dev.warden.server.net.ServerContext;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The figures behind the console's live charts, read once a second by the page: running totals
 * (requests answered and their summed latency, so the page draws throughput and the average
 * latency of each interval from two readings), the latency percentiles of reads and writes
 * (over everything since the server started or {@code srst}, as mntr gives them), and the
 * requests outstanding now.
 */
final class StatsApi {
    private final ServerContext server;

    StatsApi(ServerContext server) {
        this.server = server;
    }

    Map<String, Object> stats() {
        var stats = server.stats();
        var latency = stats.latency();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("time_ms", server.clock().wallTimeMs());
        out.put("requests", latency.count());
        out.put("latency_total_ms", latency.totalMs());
        out.put("outstanding", server.pipeline().outstanding());
        out.put("read_p50_ms", stats.latencyPercentileMs(false, 0.5));
        out.put("read_p95_ms", stats.latencyPercentileMs(false, 0.95));
        out.put("read_p99_ms", stats.latencyPercentileMs(false, 0.99));
        out.put("write_p50_ms", stats.latencyPercentileMs(true, 0.5));
        out.put("write_p95_ms", stats.latencyPercentileMs(true, 0.95));
        out.put("write_p99_ms", stats.latencyPercentileMs(true, 0.99));
        out.put("packets_received", stats.packetsReceived());
        out.put("packets_sent", stats.packetsSent());
        out.put("connections", server.registry().size());
        out.put("node_count", server.stateMachine().tree().nodeCount());
        out.put("watch_count", server.watches().watchCount());
        out.put("last_zxid", TreeApi.hex(server.stateMachine().tree().lastAppliedZxid()));
        return out;
    }
}
