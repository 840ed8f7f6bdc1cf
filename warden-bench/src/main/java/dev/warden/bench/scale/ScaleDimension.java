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
            "ops/s", "p99 ms"),
    /**
     * Children of one node, read back by getChildren (8 sessions × 4 in flight); also the time one
     * session takes to create them (1,000 in flight). The reply to 100,000 children is about
     * 1.2 MB, above ZooKeeper's default jute.maxbuffer: both servers and the client get 4 MiB.
     */
    CHILDREN("children", "children of the node read", List.of(1000L, 10_000L, 100_000L), "getChildren/s",
            "getChildren p99 ms", "ms to create the children"),
    /**
     * Znodes in the tree (100-byte values), mixed load over all of them (16 sessions × 32, 90 %
     * getData, 10 % setData of 100 bytes); also the server's heap after full collections. 10M is
     * an opt-in point ({@code --points}): it needs a heap of several GB and minutes per server.
     */
    ZNODES("znodes", "znodes in the tree", List.of(10_000L, 100_000L, 1_000_000L), "ops/s", "p99 ms",
            "MiB heap after GC"),
    /**
     * Members of the ensemble, each a JVM of its own on this machine; setData (16 sessions × 32,
     * 1 KiB) with the sessions spread over the members.
     */
    MEMBERS("members", "ensemble members", List.of(3L, 5L, 7L), "setData/s", "setData p99 ms");

    /** Sessions that run the load in the connections dimension; the others only ping. */
    public static final int ACTIVE_SESSIONS = 16;

    private final String cliName;
    private final String axisLabel;
    private final List<Long> defaultPoints;
    private final String throughputLabel;
    private final String latencyLabel;
    private final String extraLabel;

    ScaleDimension(String cliName, String axisLabel, List<Long> defaultPoints, String throughputLabel,
                   String latencyLabel) {
        this(cliName, axisLabel, defaultPoints, throughputLabel, latencyLabel, null);
    }

    ScaleDimension(String cliName, String axisLabel, List<Long> defaultPoints, String throughputLabel,
                   String latencyLabel, String extraLabel) {
        this.extraLabel = extraLabel;
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

    /** The third figure some dimensions measure (creation time, heap), or empty. */
    public java.util.Optional<String> extraLabel() {
        return java.util.Optional.ofNullable(extraLabel);
    }

    /**
     * Why {@code x} cannot be measured in this dimension, or null when it can: the active sessions
     * at least, an ensemble bench compare can start, a getChildren reply within the frame limit.
     */
    String refusal(long x, int frameLimitBytes) {
        return switch (this) {
            case CONNECTIONS -> x < ACTIVE_SESSIONS ? "connections point " + x + " is below " + ACTIVE_SESSIONS : null;
            case MEMBERS -> x == 3 || x == 5 || x == 7 ? null
                    : "members point " + x + ": the ensembles are 3, 5 or 7 members";
            case CHILDREN -> x < 1 ? "children point " + x + " is below 1"
                    : ChildrenLoad.replyBytes(x) > frameLimitBytes ? "children point " + x + ": its getChildren"
                    + " reply (" + ChildrenLoad.replyBytes(x) + " bytes) is above jute.maxbuffer (" + frameLimitBytes
                    + " bytes); at most " + ChildrenLoad.maxChildren(frameLimitBytes) + " children" : null;
            default -> x < 1 ? cliName + " point " + x + " is below 1" : null;
        };
    }

    /** Known names. */
    public static ScaleDimension parse(String name) {
        for (ScaleDimension d : values()) {
            if (d.cliName.equalsIgnoreCase(name) || d.name().equalsIgnoreCase(name)) {
                return d;
            }
        }
        String known = Arrays.stream(values()).map(ScaleDimension::cliName).collect(Collectors.joining(", "));
        throw new IllegalArgumentException("unknown dimension '" + name + "'; known: " + known);
    }
}
