package dev.warden.chaos.nemesis;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Every fault the nemesis can inject, by the name the command line and reports use. Some need
 * Warden's fault-injecting storage (not available to the Apache ZooKeeper baseline), one needs
 * libfaketime.
 */
public enum FaultKind {
    PARTITION_LEADER("partition-leader", "the leader cut off from every other member, both ways", false, false),
    PARTITION_HALVES("partition-halves", "a random minority cut off from the majority", false, false),
    PARTITION_BRIDGE("partition-bridge", "two groups that cannot reach each other, one member reaching both", false, false),
    PARTITION_ONE_WAY("partition-one-way", "the leader's messages to the others dropped, theirs to it delivered", false, false),
    PARTITION_FLAPPING("partition-flapping", "a new random partition every 0.5-2 s", false, false),
    NET_SLOW("net-slow", "every peer link delayed 20-150 ms plus jitter (reordering across links)", false, false),
    NET_LOSSY("net-lossy", "20% of the chunks on every peer link wait out a retransmission timeout", false, false),
    KILL("kill", "kill -9 of the leader or a random member, restarted at the heal", false, false),
    PAUSE("pause", "SIGSTOP of the leader or a random member past the session timeout, SIGCONT at the heal", false, false),
    CLOCK("clock", "one member's wall clock jumped by minutes or run fast (libfaketime)", false, true),
    POWER_CUT("power-cut", "every member killed at once; on Warden every write not yet fsynced taken back, as a power cut would", false, false),
    CLIENT_CUTOFF("client-cutoff", "a client holding an ephemeral cut off from every member", false, false),
    EMPTY_DATA_DIR("empty-data-dir", "a member killed and restarted with an empty data directory", false, false),
    SNAPSHOT_CORRUPT("snapshot-corrupt", "a stopped member's newest snapshot overwritten in the middle, then a restart", false, false),
    LOG_PURGED("log-purged", "a stopped member's oldest log segment deleted, then a restart", false, false),
    LOG_DAMAGED("log-damaged", "64 bytes inverted inside a stopped member's log segment, then a restart", false, false),
    DISK_SLOW("disk-slow", "every fsync of one member 100-400 ms slower", true, false),
    DISK_FULL("disk-full", "one member's disk full", true, false),
    FSYNC_FAIL("fsync-fail", "every fsync of one member failing", true, false),
    CRASH_LOSE_UNSYNCED("crash-lose-unsynced", "fsyncs of a member slowed for 2 s, then kill -9 and every write it had not fsynced taken back", true, false);

    private final String id;
    private final String description;
    private final boolean wardenStorageOnly;
    private final boolean needsFaketime;

    FaultKind(String id, String description, boolean wardenStorageOnly, boolean needsFaketime) {
        this.id = id;
        this.description = description;
        this.wardenStorageOnly = wardenStorageOnly;
        this.needsFaketime = needsFaketime;
    }

    public String id() {
        return id;
    }

    public String description() {
        return description;
    }

    public boolean wardenStorageOnly() {
        return wardenStorageOnly;
    }

    public boolean needsFaketime() {
        return needsFaketime;
    }

    /** A comma-separated list of ids, or "all". */
    public static List<FaultKind> parseList(String text) {
        if (text.trim().equalsIgnoreCase("all")) {
            return List.of(values());
        }
        return Arrays.stream(text.split(",")).map(String::trim).filter(s -> !s.isEmpty()).map(FaultKind::parse).toList();
    }

    public static FaultKind parse(String text) {
        for (FaultKind kind : values()) {
            if (kind.id.equals(text.toLowerCase(Locale.ROOT))) {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown fault '" + text + "'; the faults are "
                + Arrays.stream(values()).map(FaultKind::id).toList() + " or all");
    }
}
