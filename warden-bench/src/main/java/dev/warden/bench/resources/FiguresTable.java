package dev.warden.bench.resources;

import java.util.List;
import java.util.Locale;

/** Renders two probe reports side by side as the markdown table in docs/RESOURCES.md. */
final class FiguresTable {
    /** One row: the report key, its label, and how to show its value. */
    private record Row(String key, String label, double divisor, String unit) {
    }

    private static final double MIB = 1024.0 * 1024.0;
    private static final List<Row> ROWS = List.of(
            new Row(ProbeReport.HEAP_BYTES_PER_ZNODE, "heap per znode", 1, "bytes"),
            new Row(ProbeReport.RSS_BYTES_PER_ZNODE, "RSS per znode", 1, "bytes"),
            new Row(ProbeReport.HEAP_BYTES_PER_WATCH, "heap per watch", 1, "bytes"),
            new Row(ProbeReport.IDLE_SESSIONS, "idle sessions held, for the next row", 1, "sessions"),
            new Row(ProbeReport.HEAP_BYTES_PER_IDLE_SESSION, "heap per idle session (connection included)", 1, "bytes"),
            new Row(ProbeReport.SNAPSHOT_BYTES, "snapshot size", MIB, "MiB"),
            new Row(ProbeReport.SNAPSHOT_MS, "time to write a snapshot", 1, "ms"),
            new Row(ProbeReport.RESTART_TO_SERVING_MS, "restart: JVM launch to first read served", 1, "ms"),
            new Row(ProbeReport.RESTART_SERVER_START_MS, "restart: server start (recovery + bind)", 1, "ms"),
            new Row(ProbeReport.LOG_TAIL_WRITES, "writes logged after the snapshot, for the next two rows", 1, "txns"),
            new Row(ProbeReport.RESTART_WITH_LOG_TO_SERVING_MS, "restart with those in the log: JVM launch to first read", 1,
                    "ms"),
            new Row(ProbeReport.RESTART_WITH_LOG_SERVER_START_MS, "restart with those in the log: server start", 1, "ms"),
            new Row(ProbeReport.CREATE_MS, "time to create the znodes (for reference)", 1, "ms"),
            new Row(ProbeReport.HEAP_BASELINE_BYTES, "heap of the empty server (baseline)", MIB, "MiB"),
            new Row(ProbeReport.RSS_BASELINE_BYTES, "RSS of the empty server (baseline)", MIB, "MiB"));

    private FiguresTable() {
    }

    static String render(ProbeReport warden, ProbeReport apache) {
        StringBuilder out = new StringBuilder();
        out.append("| figure | unit | Warden | Apache ZooKeeper | Warden / Apache |\n");
        out.append("|---|---|---:|---:|---:|\n");
        for (Row row : ROWS) {
            double w = warden.getDouble(row.key()) / row.divisor();
            double a = apache.getDouble(row.key()) / row.divisor();
            out.append("| ").append(row.label()).append(" | ").append(row.unit()).append(" | ")
                    .append(number(w)).append(" | ").append(number(a)).append(" | ")
                    .append(a == 0 ? "n/a" : String.format(Locale.ROOT, "%.2f", w / a)).append(" |\n");
        }
        return out.toString();
    }

    private static String number(double value) {
        return Math.abs(value) >= 100 || value == Math.rint(value)
                ? String.format(Locale.ROOT, "%,.0f", value)
                : String.format(Locale.ROOT, "%.1f", value);
    }
}
