package dev.warden.server.config;

/**
 * ZooKeeper's metricsProvider keys: with {@code metricsProvider.className} naming ZooKeeper's
 * Prometheus provider, {@code /metrics} is served on {@code metricsProvider.httpHost:httpPort}.
 *
 * @param prometheus    metricsProvider.className is {@link #PROMETHEUS_PROVIDER}
 * @param httpHost      metricsProvider.httpHost
 * @param httpPort      metricsProvider.httpPort (0 picks a free port)
 * @param exportJvmInfo metricsProvider.exportJvmInfo: the JVM's own metrics beside the server's
 */
public record MetricsSettings(boolean prometheus, String httpHost, int httpPort, boolean exportJvmInfo) {
    public static final String PROMETHEUS_PROVIDER = "org.apache.zookeeper.metrics.prometheus.PrometheusMetricsProvider";
    /** No provider; when one is named, ZooKeeper's port and JVM export, on loopback like the client port. */
    public static final MetricsSettings DEFAULTS = new MetricsSettings(false, "127.0.0.1", 7000, true);

    public MetricsSettings {
        if (httpHost == null || httpHost.isBlank()) {
            throw ConfigException.invalid("metricsProvider.httpHost", httpHost,
                    "must be a host name or IP address to listen on");
        }
        httpHost = httpHost.trim();
        if (httpPort < 0 || httpPort > 65535) {
            throw ConfigException.invalid("metricsProvider.httpPort", httpPort,
                    "must be a port from 0 to 65535 (0 picks a free port)");
        }
    }

    public MetricsSettings withPrometheus(boolean v) {
        return new MetricsSettings(v, httpHost, httpPort, exportJvmInfo);
    }

    public MetricsSettings withHttpHost(String v) {
        return new MetricsSettings(prometheus, v, httpPort, exportJvmInfo);
    }

    public MetricsSettings withHttpPort(int v) {
        return new MetricsSettings(prometheus, httpHost, v, exportJvmInfo);
    }

    public MetricsSettings withExportJvmInfo(boolean v) {
        return new MetricsSettings(prometheus, httpHost, httpPort, v);
    }
}
