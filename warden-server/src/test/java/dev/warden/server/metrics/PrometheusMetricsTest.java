package dev.warden.server.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.server.ApacheClients;
import dev.warden.server.WardenServer;
import dev.warden.server.config.MetricsSettings;
import dev.warden.server.config.ServerConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
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
 * /metrics with ZooKeeper's Prometheus provider configured: the metric names and types ZooKeeper's
 * provider exports for the same figures (what dashboards and alerts written for ZooKeeper query;
 * its counters without _total), the JVM's metrics under the names ZooKeeper exports them, the
 * values of the state, and a body in text format 0.0.4 whatever the scraper asks for.
 */
class PrometheusMetricsTest {
    /** ZooKeeper 3.9's counters, exported (Prometheus's Java client 0.9) under their own names, without _total. */
    private static final List<String> ZOOKEEPER_COUNTERS = List.of("digest_mismatches_count", "bytes_received_count",
            "connection_request_count", "connection_rejected", "sessionless_connections_expired", "looking_count",
            "diff_count", "snap_count", "proposal_count", "commit_count", "learner_proposal_received_count",
            "learner_commit_received_count");
    /** Other names ZooKeeper 3.9's Prometheus provider exports (gauges, summaries as _count/_sum). */
    private static final List<String> ZOOKEEPER_NAMES = List.of("znode_count", "watch_count", "ephemerals_count",
            "approximate_data_size", "num_alive_connections", "outstanding_requests", "avg_latency", "max_latency",
            "min_latency", "packets_received", "packets_sent", "uptime", "global_sessions", "local_sessions",
            "open_file_descriptor_count", "max_file_descriptor_count", "last_client_response_size",
            "min_client_response_size", "max_client_response_size", "auth_failed_count",
            "fsynctime_count", "fsynctime_sum",
            "sync_processor_batch_size_count", "snapshottime_count", "dbinittime_sum", "startup_txns_loaded_count",
            "startup_snap_load_time_sum", "readlatency_count",
            "readlatency_sum", "updatelatency_count", "updatelatency_sum", "node_changed_watch_count_count");
    /** The JVM's metrics under Prometheus's Java client's names, as ZooKeeper's provider exports them. */
    private static final List<String> JVM_NAMES = List.of("jvm_memory_bytes_used", "jvm_memory_bytes_max",
            "jvm_threads_current", "jvm_threads_deadlocked", "jvm_gc_collection_seconds_count",
            "process_cpu_seconds_total", "process_open_fds", "jvm_info", "jvm_classes_loaded", "jvm_classes_loaded_total");

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
                ExpositionText scraped = scrape(server.metricsPort(), null);
                Map<String, String> samples = scraped.samples();
                Set<String> missing = new TreeSet<>(ZOOKEEPER_NAMES);
                missing.addAll(ZOOKEEPER_COUNTERS);
                missing.addAll(JVM_NAMES);
                missing.removeAll(samples.keySet());
                assertEquals(Set.of(), missing);
                for (String counter : ZOOKEEPER_COUNTERS) {
                    assertEquals("counter", scraped.types().get(counter), counter);
                    assertFalse(samples.containsKey(counter + "_total"), counter + "_total");
                }
                assertEquals("gauge", scraped.types().get("jvm_classes_loaded"));
                assertEquals("counter", scraped.types().get("jvm_classes_loaded_total"));
                assertEquals("counter", scraped.types().get("process_cpu_seconds_total"));
                assertEquals("counter", scraped.types().get("warden_fsync_threshold_exceed"));
                assertTrue(Double.parseDouble(samples.get("bytes_received_count")) > 0, samples.toString());
                assertTrue(Double.parseDouble(samples.get("connection_request_count")) >= 1, samples.toString());
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
            Map<String, String> samples = scrape(server.metricsPort(), null).samples();
            assertTrue(samples.containsKey("znode_count"));
            assertTrue(samples.keySet().stream().noneMatch(name -> name.startsWith("jvm_")), samples.keySet().toString());
        }
    }

    /**
     * Prometheus asks for OpenMetrics first, where a counter's samples must end in _total;
     * ZooKeeper's provider answers text format 0.0.4 whatever is asked, and so does Warden.
     */
    @Test
    void aScraperAskingForOpenMetricsGetsTextFormatWithZooKeepersCounterNames() throws Exception {
        ServerConfig config = ServerConfig.builder().dataDir(dataDir).clientPort(0)
                .metrics(MetricsSettings.DEFAULTS.withPrometheus(true).withHttpPort(0).withExportJvmInfo(false)).build();
        try (WardenServer server = WardenServer.start(config)) {
            ExpositionText scraped = scrape(server.metricsPort(), PROMETHEUS_ACCEPT);
            assertEquals("counter", scraped.types().get("looking_count"));
            assertTrue(scraped.samples().containsKey("looking_count"), scraped.samples().keySet().toString());
            assertFalse(scraped.samples().containsKey("looking_count_total"));
        }
    }

    @Test
    void noProviderNoPort() throws Exception {
        try (WardenServer server = WardenServer.start(ServerConfig.builder().dataDir(dataDir).clientPort(0).build())) {
            assertEquals(-1, server.metricsPort());
        }
    }

    /** The Accept header Prometheus 2.x sends with a scrape. */
    private static final String PROMETHEUS_ACCEPT =
            "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,"
                    + "text/plain;version=0.0.4;q=0.5,*/*;q=0.1";

    /** A scrape, checked to be text format 0.0.4 (content type and layout); accept may be null. */
    private static ExpositionText scrape(int port, String accept) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"));
        if (accept != null) {
            request.header("Accept", accept);
        }
        HttpResponse<String> response = HttpClient.newHttpClient().send(request.build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode());
        assertEquals("text/plain; version=0.0.4; charset=utf-8",
                response.headers().firstValue("Content-Type").orElse(""));
        return ExpositionText.parse(response.body());
    }
}
