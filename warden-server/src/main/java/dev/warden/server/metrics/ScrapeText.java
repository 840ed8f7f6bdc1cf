package dev.warden.server.metrics;

import io.prometheus.client.Collector.MetricFamilySamples;
import io.prometheus.client.CollectorRegistry;
import io.prometheus.client.exporter.common.TextFormat;
import java.io.IOException;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The body of one {@code /metrics} response, always in Prometheus's text format 0.0.4, the only
 * format ZooKeeper's provider serves: OpenMetrics requires a counter's samples to end in
 * {@code _total}, which would rename ZooKeeper's counters for a scraper that asks for it. The
 * server's gauges and summaries and the JVM's metrics go through Prometheus's Java client's
 * writer; the server's counters through {@link CounterText}, under their own names.
 */
final class ScrapeText {
    static final String CONTENT_TYPE = TextFormat.CONTENT_TYPE_004;

    private final ServerCollector server;
    private final CollectorRegistry jvm;

    /** {@code jvm} holds the JVM's collectors, or none without metricsProvider.exportJvmInfo. */
    ScrapeText(ServerCollector server, CollectorRegistry jvm) {
        this.server = server;
        this.jvm = jvm;
    }

    String write() throws IOException {
        ServerCollector.Scrape scrape = server.collect();
        List<MetricFamilySamples> families = new ArrayList<>(scrape.families());
        families.addAll(Collections.list(jvm.metricFamilySamples()));
        StringWriter out = new StringWriter();
        TextFormat.write004(out, Collections.enumeration(families));
        CounterText.write(out, scrape.counters());
        return out.toString();
    }
}
