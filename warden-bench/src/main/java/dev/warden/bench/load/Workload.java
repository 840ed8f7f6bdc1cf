package dev.warden.bench.load;

import java.util.Arrays;
import java.util.stream.Collectors;

/** What the load generator does; each workload says what one counted operation is. */
public enum Workload {
    /** setData on a random existing key, any version. One op = one setData. */
    SET_DATA("setData"),
    /** getData of a random existing key. One op = one getData. */
    GET_DATA("getData"),
    /** exists on a random existing key. One op = one exists. */
    EXISTS("exists"),
    /** getData or setData on a random key; the read share is {@code readPercent}. */
    MIXED("mixed"),
    /** create a fresh node, then delete it. One op = one create or one delete. */
    CREATE_DELETE("createDelete"),
    /** The lock recipe (ephemeral sequential node, wait for the predecessor). One op = one acquisition. */
    LOCK("lock"),
    /** One setData on a node that many sessions watch. One op = one round, its latency = until all saw it. */
    FANOUT("fanout"),
    /** Sessions opened and closed back to back. One op = one session's open + close. */
    SESSION_STORM("sessionStorm"),
    /**
     * Compare-and-set: setData with the version the slot's previous write returned, each in-flight
     * slot on a key of its own (so no write loses the race). One op = one versioned setData.
     */
    CAS_SET_DATA("casSetData"),
    /** setData with large values (default 1 MiB). One op = one setData. */
    LARGE("large");

    /** Default value size for {@link #LARGE}: one MiB. */
    public static final int LARGE_VALUE_BYTES = 1 << 20;

    private final String cliName;

    Workload(String cliName) {
        this.cliName = cliName;
    }

    public String cliName() {
        return cliName;
    }

    /** The workload for a command-line name, case-insensitively; a clear error otherwise. */
    public static Workload parse(String name) {
        for (Workload w : values()) {
            if (w.cliName.equalsIgnoreCase(name) || w.name().equalsIgnoreCase(name)) {
                return w;
            }
        }
        throw new IllegalArgumentException("unknown workload '" + name + "'; known: "
                + Arrays.stream(values()).map(Workload::cliName).collect(Collectors.joining(", ")));
    }

    /** Whether the workload needs {@code keyCount} keys created before it starts. */
    boolean usesKeys() {
        return this == SET_DATA || this == CAS_SET_DATA || this == GET_DATA || this == EXISTS || this == MIXED || this == LARGE;
    }
}
