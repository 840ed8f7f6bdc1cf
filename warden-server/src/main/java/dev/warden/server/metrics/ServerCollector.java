package dev.warden.server.metrics;

import dev.warden.server.net.Monitor;
import dev.warden.server.net.ServerContext;
import io.prometheus.client.Collector;
import io.prometheus.client.CounterMetricFamily;
import io.prometheus.client.GaugeMetricFamily;
import io.prometheus.client.SummaryMetricFamily;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The server's figures as Prometheus metrics under the names ZooKeeper's Prometheus provider
 * gives them: mntr's keys without "zk_", as gauges, or as counters where ZooKeeper counts
 * (exposed with "_total"); mntr's summaries as Prometheus summaries ({@code <name>_count},
 * {@code <name>_sum}, and for the request latencies the quantiles 0.5, 0.9 and 0.99). Plus
 * Warden's own figures, prefixed {@code warden_}. Read at each scrape; nothing is kept here.
 */
final class ServerCollector extends Collector {
    /** ZooKeeper's ServerMetrics counters among mntr's keys; its other scalar figures are gauges. */
    static final Set<String> COUNTERS = Set.of("digest_mismatches_count", "bytes_received_count",
            "connection_request_count", "connection_rejected", "sessionless_connections_expired");
    /** Summaries with count and sum only (ZooKeeper's BASIC detail level). */
    static final List<String> BASIC_SUMMARIES = List.of("fsynctime", "sync_processor_batch_size", "snapshottime",
            "dbinittime", "node_created_watch_count", "node_deleted_watch_count", "node_changed_watch_count",
            "node_children_watch_count");
    /** Summaries with quantiles (ZooKeeper's ADVANCED detail level). */
    static final List<String> ADVANCED_SUMMARIES = List.of("readlatency", "updatelatency");
    private static final List<String> SUMMARY_PARTS = List.of("avg_", "min_", "max_", "cnt_", "sum_", "p50_", "p95_",
            "p99_", "p999_");
    /** mntr figures that are text, or Warden's own: not exported under ZooKeeper's names. */
    private static final Set<String> NOT_ZOOKEEPER_METRICS = Set.of("version", "server_state", "tree_digest",
            "fsync_threshold_exceed_count");

    private final ServerContext server;

    ServerCollector(ServerContext server) {
        this.server = server;
    }

    @Override
    public List<MetricFamilySamples> collect() {
        List<MetricFamilySamples> families = new ArrayList<>();
        Optional<String> mode = server.memberStatus().servingMode();
        Map<String, Object> figures = Monitor.figures(server, mode.orElse(server.memberStatus().mode()));
        figures.forEach((key, value) -> {
            if (!(value instanceof Number number) || NOT_ZOOKEEPER_METRICS.contains(key) || isSummaryPart(key)) {
                return;
            }
            families.add(COUNTERS.contains(key)
                    ? new CounterMetricFamily(key, key, number.doubleValue())
                    : new GaugeMetricFamily(key, key, number.doubleValue()));
        });
        for (String name : BASIC_SUMMARIES) {
            families.add(new SummaryMetricFamily(name, name, count(figures, name), sum(figures, name)));
        }
        for (String name : ADVANCED_SUMMARIES) {
            List<Double> quantiles = List.of(0.5, 0.9, 0.99);
            SummaryMetricFamily summary = new SummaryMetricFamily(name, name, List.<String>of(), quantiles);
            boolean writes = name.equals("updatelatency");
            summary.addMetric(List.<String>of(), count(figures, name), sum(figures, name),
                    quantiles.stream().map(q -> (double) server.stats().latencyPercentileMs(writes, q)).toList());
            families.add(summary);
        }
        families.add(new GaugeMetricFamily("warden_serving", "1 while this server answers clients, 0 while it cannot"
                + " (an ensemble member looking for or synchronizing with a leader)", mode.isPresent() ? 1 : 0));
        families.add(new CounterMetricFamily("warden_fsync_threshold_exceed", "fsyncs of the transaction log that took"
                + " fsync.warningthresholdms or more", server.stats().fsyncs().slowCount()));
        GaugeMetricFamily lag = new GaugeMetricFamily("warden_follower_lag_transactions", "on a serving leader, for"
                + " each synced follower, the transactions it has not acknowledged yet", List.of("follower"));
        server.memberStatus().followerLag().forEach((id, behind) -> lag.addMetric(List.of(Long.toString(id)), behind));
        families.add(lag);
        families.add(new GaugeMetricFamily("warden_last_applied_zxid", "the zxid of the last transaction applied to"
                + " the tree", server.stateMachine().tree().lastAppliedZxid()));
        return families;
    }

    private static boolean isSummaryPart(String key) {
        for (String part : SUMMARY_PARTS) {
            if (key.startsWith(part)) {
                String name = key.substring(part.length());
                if (BASIC_SUMMARIES.contains(name) || ADVANCED_SUMMARIES.contains(name)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static double count(Map<String, Object> figures, String name) {
        return ((Number) figures.getOrDefault("cnt_" + name, 0)).doubleValue();
    }

    private static double sum(Map<String, Object> figures, String name) {
        return ((Number) figures.getOrDefault("sum_" + name, 0)).doubleValue();
    }
}
