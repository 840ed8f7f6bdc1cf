package dev.warden.bench.resources;

import dev.warden.cli.cluster.Flavour;
import java.nio.file.Path;
import java.util.List;

/**
 * Command line of {@link ResourceProbe}. {@code logTail} is for the restart phase: znodes 0 to
 * logTail-1 were set to {@link ZnodeLoader#TAIL_VALUE} by writes logged after the snapshot, and
 * the restarted server must show that.
 */
record ProbeOptions(Flavour flavour, int znodes, Path dataDir, int maxInFlight, boolean restartPhase, int logTail,
                    int snapCount, int idleSessions) {
    static final int DEFAULT_ZNODES = 1_000_000;
    static final int DEFAULT_IN_FLIGHT = 1000;
    /** Both servers' default: a snapshot every 50,000 to 100,000 transactions. */
    static final int DEFAULT_SNAP_COUNT = 100_000;
    /** Idle sessions weighed: as many as the performance targets name, well inside the 20,000 file descriptors. */
    static final int DEFAULT_IDLE_SESSIONS = 10_000;
    static final String USAGE = "usage: ResourceProbe --flavour warden|apache --data-dir DIR [--znodes N] "
            + "[--in-flight N] [--snap-count N] [--idle-sessions N]";

    ProbeOptions {
        if (znodes < 1) {
            throw new IllegalArgumentException("--znodes must be >= 1: " + znodes);
        }
        if (maxInFlight < 1) {
            throw new IllegalArgumentException("--in-flight must be >= 1: " + maxInFlight);
        }
        if (snapCount < 2) {
            throw new IllegalArgumentException("--snap-count must be >= 2: " + snapCount);
        }
        if (idleSessions < 1) {
            throw new IllegalArgumentException("--idle-sessions must be >= 1: " + idleSessions);
        }
        if (logTail < 0 || logTail > znodes) {
            throw new IllegalArgumentException("--log-tail must be within 0.." + znodes + ": " + logTail);
        }
    }

    static ProbeOptions parse(String[] args) {
        Flavour flavour = null;
        Path dataDir = null;
        int znodes = DEFAULT_ZNODES;
        int inFlight = DEFAULT_IN_FLIGHT;
        boolean restart = false;
        int logTail = 0;
        int snapCount = DEFAULT_SNAP_COUNT;
        int idleSessions = DEFAULT_IDLE_SESSIONS;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--flavour" -> flavour = Flavour.parse(value(args, ++i, arg));
                case "--data-dir" -> dataDir = Path.of(value(args, ++i, arg));
                case "--znodes" -> znodes = intValue(args, ++i, arg);
                case "--in-flight" -> inFlight = intValue(args, ++i, arg);
                case "--restart-phase" -> restart = true;
                case "--log-tail" -> logTail = intValue(args, ++i, arg);
                case "--snap-count" -> snapCount = intValue(args, ++i, arg);
                case "--idle-sessions" -> idleSessions = intValue(args, ++i, arg);
                default -> throw new IllegalArgumentException("unknown option '" + arg + "'; " + USAGE);
            }
        }
        if (flavour == null || dataDir == null) {
            throw new IllegalArgumentException("--flavour and --data-dir are required; " + USAGE);
        }
        return new ProbeOptions(flavour, znodes, dataDir, inFlight, restart, logTail, snapCount, idleSessions);
    }

    /** The arguments that start this probe's restart phase on the same data, with {@code logTail} set after the snapshot. */
    List<String> restartArgs(int logTail) {
        return List.of("--flavour", flavour.cliName(), "--data-dir", dataDir.toString(),
                "--znodes", Integer.toString(znodes), "--restart-phase", "--log-tail", Integer.toString(logTail), "--snap-count", Integer.toString(snapCount));
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value; " + USAGE);
        }
        return args[i];
    }

    private static int intValue(String[] args, int i, String option) {
        String text = value(args, i, option);
        try {
            return Integer.parseInt(text.replace("_", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " must be a whole number: '" + text + "'");
        }
    }
}
