package dev.warden.bench.scale;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One thing {@code bench scale} grows while everything else stays as it is, with the points it is
 * measured at by default and what is measured at each.
 */
public enum ScaleDimension {
    /** Open sessions, of which 16 run the load (mixed, 90 % reads) and the rest only ping. */
    CONNECTIONS("connections", "open sessions (16 of them active)", List.of(16L, 256L, 1024L, 4096L, 10_000L),
            "ops/s", "p99 ms"),
    /**
     * Sessions each holding an exists watch on one node; one setData fires them all. Each session
     * is a socket on both sides, so the file-descriptor limit (ulimit -n) caps the count: 100,000
     * watchers need it raised for the load generator and the server.
     */
    WATCHERS("watchers", "watches on one node (one session each)", List.of(1L, 10L, 100L, 1000L, 10_000L),
            "notifications/s", "ms until the last is notified (p99 of the rounds)"),
    /** Bytes per setData value, 16 sessions × 4 in flight over 100 keys. */
    VALUE_SIZE("value-size", "value bytes per setData", List.of(16L, 256L, 4096L, 65_536L, 1_048_576L),
            "ops/s", "p99 ms");

    /** Sessions that run the load in the connections dimension; the others only ping. */
    public static final int ACTIVE_SESSIONS = 16;

    private final String cliName;
    private final String axisLabel;
    private final List<Long> defaultPoints;
    private final String throughputLabel;
    private final String latencyLabel;

    ScaleDimension(String cliName, String axisLabel, List<Long> defaultPoints, String throughputLabel,
                   String latencyLabel) {
        this.cliName = cliName;
        this.axisLabel = axisLabel;
        this.defaultPoints = defaultPoints;
        this.throughputLabel = throughputLabel;
        this.latencyLabel = latencyLabel;
    }

    public String cliName() {
        return cliName;
    }

    public String axisLabel() {
        return axisLabel;
    }

    public List<Long> defaultPoints() {
        return defaultPoints;
    }

    public String throughputLabel() {
        return throughputLabel;
    }

    public String latencyLabel() {
        return latencyLabel;
    }

    /** The smallest point that makes sense: the active sessions themselves, one watcher, one byte. */
    long minimumPoint() {
        return this == CONNECTIONS ? ACTIVE_SESSIONS : 1;
    }

    /** Known names: these three are built; znodes, children and members are not (see docs/PERFORMANCE.md). */
    public static ScaleDimension parse(String name) {
        for (ScaleDimension d : values()) {
            if (d.cliName.equalsIgnoreCase(name) || d.name().equalsIgnoreCase(name)) {
                return d;
            }
        }
        String known = Arrays.stream(values()).map(ScaleDimension::cliName).collect(Collectors.joining(", "));
        if (List.of("znodes", "children", "members").contains(name.toLowerCase())) {
            throw new IllegalArgumentException("dimension '" + name + "' is not measured by bench scale yet; measured: "
                    + known + " (znode counts: bench resources)");
        }
        throw new IllegalArgumentException("unknown dimension '" + name + "'; known: " + known);
    }
}
