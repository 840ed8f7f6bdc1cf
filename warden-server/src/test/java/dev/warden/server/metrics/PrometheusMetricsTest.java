package dev.warden.server.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.server.ApacheClients;
import dev.warden.server.config.MetricsSettings;
import dev.warden.server.config.ServerConfig;
import dev.warden.server.WardenServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * /metrics with ZooKeeper's Prometheus provider configured: the metric names ZooKeeper's provider
 * exports for the same figures (what dashboards and alerts written for ZooKeeper query), the
 * JVM's metrics under the Java client's names, and the values of the state.
 */
class PrometheusMetricsTest {
    /** Names ZooKeeper 3.9's Prometheus provider exports (gauges, counters as _total, summaries as _count/_sum). */
    private static final List<String> ZOOKEEPER_NAMES = List.of("znode_count", "watch_count", "ephemerals_count",
            "approximate_data_size", "num_alive_connections", "outstanding_requests", "avg_latency", "max_latency",
            "min_latency", "packets_received", "packets_sent", "uptime", "global_sessions", "local_sessions",
            "open_file_descriptor_count", "max_file_descriptor_count", "last_client_response_size",
            "min_client_response_size", "max_client_response_size", "auth_failed_count",
            "digest_mismatches_count_total", "bytes_received_count_total", "connection_request_count_total",
            "connection_rejected_total", "sessionless_connections_expired_total", "looking_count_total",
            "diff_count_total", "snap_count_total", "fsynctime_count", "fsynctime_sum",
            "sync_processor_batch_size_count", "snapshottime_count", "dbinittime_sum", "startup_txns_loaded_count",
            "startup_snap_load_time_sum", "readlatency_count",
            "readlatency_sum", "updatelatency_count", "updatelatency_sum", "node_changed_watch_count_count");
    /** The JVM's metrics under Prometheus's Java client's names, as ZooKeeper's provider exports them. */
    private static final List<String> JVM_NAMES = List.of("jvm_memory_bytes_used", "jvm_memory_bytes_max",
            "jvm_threads_current", "jvm_threads_deadlocked", "jvm_gc_collection_seconds_count",
            "process_cpu_seconds_total", "process_open_fds", "jvm_info");

    @TempDir
    Path dataDir;

    @Test
    void metricsHaveZooKeepersNamesAndTheServersValues() throws Exception {
        ServerConfig config = ServerConfig.builder().dataDir(dataDir).clientPort(0)
                .metrics(MetricsSettings.DEFAULTS.withPrometheus(true).withHttpPort(0)).build();
        try (WardenServer server = WardenServer.start(config)) {
            ZooKeeper zk = ApacheClients.connect(server.connectString());
            try {
                zk.create("/a", new byte[10], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                zk.getData("/a", true, null);
                zk.setData("/a", new byte[1], -1);
                Map<String, String> samples = scrape(server.metricsPort());
                Set<String> missing = new TreeSet<>(ZOOKEEPER_NAMES);
                missing.addAll(JVM_NAMES);
                missing.removeAll(samples.keySet());
                assertEquals(Set.of(), missing);
                assertEquals("5.0", samples.get("znode_count"));
                assertEquals("1.0", samples.get("global_sessions"));
                assertEquals("1.0", samples.get("node_changed_watch_count_count"));
                assertTrue(samples.containsKey("readlatency{quantile=\"0.99\",}")
                        || samples.containsKey("readlatency{quantile=\"0.99\"}"), samples.keySet().toString());
                assertEquals("1.0", samples.get("warden_serving"));
            } finally {
                zk.close();
            }
        }
    }

    @Test
    void withoutJvmInfoOnlyTheServersMetricsAreThere() throws Exception {
        ServerConfig config = ServerConfig.builder().dataDir(dataDir).clientPort(0)
                .metrics(MetricsSettings.DEFAULTS.withPrometheus(true).withHttpPort(0).withExportJvmInfo(false)).build();
        try (WardenServer server = WardenServer.start(config)) {
            Map<String, String> samples = scrape(server.metricsPort());
            assertTrue(samples.containsKey("znode_count"));
            assertTrue(samples.keySet().stream().noneMatch(name -> name.startsWith("jvm_")), samples.keySet().toString());
        }
    }

    @Test
    void noProviderNoPort() throws Exception {
        try (WardenServer server = WardenServer.start(ServerConfig.builder().dataDir(dataDir).clientPort(0).build())) {
            assertEquals(-1, server.metricsPort());
        }
    }

    /** Sample name (with labels) to value, from the text format; a labelled sample also under its bare name. */
    private static Map<String, String> scrape(int port) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode());
        Map<String, String> samples = new HashMap<>();
        for (String line : response.body().lines().toList()) {
            if (line.startsWith("#") || line.isBlank()) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            String name = line.substring(0, space);
            samples.put(name, line.substring(space + 1));
            int brace = name.indexOf('{');
            if (brace > 0) {
                samples.putIfAbsent(name.substring(0, brace), line.substring(space + 1));
            }
        }
        return samples;
    }
}
