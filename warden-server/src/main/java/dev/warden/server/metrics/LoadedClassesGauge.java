package dev.warden.server.metrics;

import io.prometheus.client.Collector;
import io.prometheus.client.GaugeMetricFamily;
import java.lang.management.ClassLoadingMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;

/**
 * {@code jvm_classes_loaded}, the classes loaded in the JVM now, as a gauge: the name ZooKeeper's
 * provider exports it under (Prometheus's Java client 0.9) and ZooKeeper's Grafana dashboard
 * queries. Client 0.16 exports the same figure as {@code jvm_classes_currently_loaded}, having
 * given the old name up to the counter {@code jvm_classes_loaded_total}; in text format 0.0.4 the
 * two names are distinct families, as they were in ZooKeeper's output.
 */
final class LoadedClassesGauge extends Collector {
    private final ClassLoadingMXBean classLoading = ManagementFactory.getClassLoadingMXBean();

    @Override
    public List<MetricFamilySamples> collect() {
        return List.of(new GaugeMetricFamily("jvm_classes_loaded",
                "The number of classes that are currently loaded in the JVM", classLoading.getLoadedClassCount()));
    }
}
