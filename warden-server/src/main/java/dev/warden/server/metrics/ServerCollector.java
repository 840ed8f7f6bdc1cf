package dev.warden.server.metrics;

import dev.warden.server.net.Monitor;
import dev.warden.server.net.ServerContext;
import io.prometheus.client.Collector.MetricFamilySamples;
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
 * (under the bare name, as {@link CounterSample}s, since Prometheus's Java client would add
 * "_total"); mntr's summaries as Prometheus summaries ({@code <name>_count}, {@code <name>_sum},
 * and for the request latencies the quantiles 0.5, 0.9 and 0.99). Plus Warden's own figures,
 * prefixed {@code warden_}. Read at each scrape, from one reading of the figures; nothing is
 * kept here.
 */
final class ServerCollector {
    /** ZooKeeper's ServerMetrics counters among mntr's keys; its other scalar figures are gauges. */
    static final Set<String> COUNTERS = Set.of("digest_mismatches_count", "bytes_received_count",
            "connection_request_count", "connection_rejected", "sessionless_connections_expired", "looking_count",
            "diff_count", "snap_count", "proposal_count", "commit_count", "learner_proposal_received_count",
            "learner_commit_received_count");
    /** Summaries with count and sum only (ZooKeeper's BASIC detail level). */
    static final List<String> BASIC_SUMMARIES = List.of("fsynctime", "sync_processor_batch_size", "snapshottime",
            "dbinittime", "startup_snap_load_time", "startup_txns_load_time", "startup_txns_loaded",
            "node_created_watch_count", "node_deleted_watch_count", "node_changed_watch_count",
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

    /**
     * One scrape's worth of the server's metrics.
     *
     * @param families the gauges and summaries, for Prometheus's Java client to write
     * @param counters the counters, written under their own names by {@link CounterText}
     */
    record Scrape(List<MetricFamilySamples> families, List<CounterSample> counters) {
    }

    Scrape collect() {
        List<MetricFamilySamples> families = new ArrayList<>();
        List<CounterSample> counters = new ArrayList<>();
        Optional<String> mode = server.memberStatus().servingMode();
        Map<String, Object> figures = Monitor.figures(server, mode.orElse(server.memberStatus().mode()));
        figures.forEach((key, value) -> {
            if (!(value instanceof Number number) || NOT_ZOOKEEPER_METRICS.contains(key) || isSummaryPart(key)) {
                return;
            }
            if (COUNTERS.contains(key)) {
                counters.add(new CounterSample(key, key, number.doubleValue()));
            } else {
                families.add(new GaugeMetricFamily(key, key, number.doubleValue()));
            }
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
        counters.add(new CounterSample("warden_fsync_threshold_exceed", "fsyncs of the transaction log that took"
                + " fsync.warningthresholdms or more", server.stats().fsyncs().slowCount()));
        GaugeMetricFamily lag = new GaugeMetricFamily("warden_follower_lag_transactions", "on a serving leader, for"
                + " each synced follower, the transactions it has not acknowledged yet", List.of("follower"));
        server.memberStatus().followerLag().forEach((id, behind) -> lag.addMetric(List.of(Long.toString(id)), behind));
        families.add(lag);
        GaugeMetricFamily queues = new GaugeMetricFamily("warden_queue_depth", "an ensemble member's internal queues:"
                + " events for its driver thread, batches at its log writer, events for its apply thread",
                List.of("queue"));
        server.memberStatus().queueDepths().forEach((queue, depth) -> queues.addMetric(List.of(queue), depth));
        families.add(queues);
        families.add(new GaugeMetricFamily("warden_last_applied_zxid", "the zxid of the last transaction applied to"
                + " the tree", server.stateMachine().tree().lastAppliedZxid()));
        return new Scrape(families, counters);
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
