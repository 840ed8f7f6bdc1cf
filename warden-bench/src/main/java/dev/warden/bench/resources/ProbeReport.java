package dev.warden.bench.resources;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one probe measured, as {@code probe.<key>=<value>} lines on the probe's stdout. The
 * prefix lets a reader pick the report out of whatever else a child JVM prints.
 */
public final class ProbeReport {
    static final String LINE_PREFIX = "probe.";

    public static final String FLAVOUR = "flavour";
    public static final String ZNODES = "znodes";
    public static final String ZNODES_WITH_PARENTS = "znodesWithParents";
    public static final String CREATE_MS = "createMs";
    public static final String HEAP_BASELINE_BYTES = "heapBaselineBytes";
    public static final String HEAP_BYTES_PER_ZNODE = "heapBytesPerZnode";
    public static final String RSS_BASELINE_BYTES = "rssBaselineBytes";
    public static final String RSS_BYTES_PER_ZNODE = "rssBytesPerZnode";
    public static final String WATCHES = "watches";
    public static final String HEAP_BYTES_PER_WATCH = "heapBytesPerWatch";
    public static final String IDLE_SESSIONS = "idleSessions";
    public static final String HEAP_BYTES_PER_IDLE_SESSION = "heapBytesPerIdleSession";
    public static final String SNAPSHOT_BYTES = "snapshotBytes";
    public static final String SNAPSHOT_MS = "snapshotMs";
    public static final String RESTART_TO_SERVING_MS = "restartToServingMs";
    public static final String RESTART_SERVER_START_MS = "restartServerStartMs";
    public static final String LOG_TAIL_WRITES = "logTailWrites";
    public static final String RESTART_WITH_LOG_TO_SERVING_MS = "restartWithLogToServingMs";
    public static final String RESTART_WITH_LOG_SERVER_START_MS = "restartWithLogServerStartMs";

    private final Map<String, String> values = new LinkedHashMap<>();

    public ProbeReport put(String key, Object value) {
        if (key.isEmpty() || key.contains("=") || key.contains("\n")) {
            throw new IllegalArgumentException("bad report key: '" + key + "'");
        }
        String text = String.valueOf(value);
        if (text.contains("\n")) {
            throw new IllegalArgumentException("report value for " + key + " spans lines");
        }
        values.put(key, text);
        return this;
    }

    public ProbeReport putAll(ProbeReport other) {
        values.putAll(other.values);
        return this;
    }

    public String get(String key) {
        String value = values.get(key);
        if (value == null) {
            throw new IllegalArgumentException("report has no '" + key + "'; it has " + values.keySet());
        }
        return value;
    }

    public double getDouble(String key) {
        try {
            return Double.parseDouble(get(key));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("report value " + key + "=" + get(key) + " is not a number", e);
        }
    }

    public boolean has(String key) {
        return values.containsKey(key);
    }

    public Map<String, String> asMap() {
        return Collections.unmodifiableMap(values);
    }

    /** One {@code probe.key=value} line per entry, in insertion order. */
    public String format() {
        StringBuilder out = new StringBuilder();
        values.forEach((k, v) -> out.append(LINE_PREFIX).append(k).append('=').append(v).append('\n'));
        return out.toString();
    }

    /** Reads every {@code probe.} line of {@code output}, ignoring all other lines. */
    public static ProbeReport parse(String output) {
        ProbeReport report = new ProbeReport();
        for (String line : output.split("\\R")) {
            parseLine(line, report);
        }
        if (report.values.isEmpty()) {
            throw new IllegalArgumentException("no " + LINE_PREFIX + " lines in the probe's output");
        }
        return report;
    }

    /** Adds {@code line} to {@code report} if it is a report line; returns whether it was. */
    static boolean parseLine(String line, ProbeReport report) {
        if (!line.startsWith(LINE_PREFIX)) {
            return false;
        }
        int eq = line.indexOf('=');
        if (eq <= LINE_PREFIX.length()) {
            throw new IllegalArgumentException("malformed report line: " + line);
        }
        report.put(line.substring(LINE_PREFIX.length(), eq), line.substring(eq + 1));
        return true;
    }
}
