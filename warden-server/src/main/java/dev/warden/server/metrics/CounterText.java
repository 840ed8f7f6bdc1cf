package dev.warden.server.metrics;

import io.prometheus.client.Collector;
import java.io.IOException;
import java.io.Writer;
import java.util.List;

/**
 * Writes counters in Prometheus's text format 0.0.4 under their own names: {@code # HELP name},
 * {@code # TYPE name counter}, {@code name value}. Prometheus's Java client 0.16 cannot: its
 * writer puts {@code _total} after every counter family's name, and its
 * {@code MetricFamilySamples} renames a counter's sample to {@code <name>_total}. ZooKeeper's
 * provider, on client 0.9, exports its counters without the suffix, and dashboards and alert
 * rules written for ZooKeeper query those bare names.
 */
final class CounterText {
    private CounterText() {
    }

    static void write(Writer out, List<CounterSample> counters) throws IOException {
        for (CounterSample counter : counters) {
            out.write("# HELP " + counter.name() + " " + escapeHelp(counter.help()) + "\n");
            out.write("# TYPE " + counter.name() + " counter\n");
            out.write(counter.name() + " " + Collector.doubleToGoString(counter.value()) + "\n");
        }
    }

    /** The format's HELP escapes: a backslash and a line break are the only characters it escapes there. */
    private static String escapeHelp(String help) {
        return help.replace("\\", "\\\\").replace("\n", "\\n");
    }
}
