package dev.warden.bench.resources;

import java.nio.file.Path;
import java.util.List;

/** Command line of {@link ResourceProbe}. */
record ProbeOptions(Flavour flavour, int znodes, Path dataDir, int maxInFlight, boolean restartPhase) {
    static final int DEFAULT_ZNODES = 1_000_000;
    static final int DEFAULT_IN_FLIGHT = 1000;
    static final String USAGE = "usage: ResourceProbe --flavour warden|apache --data-dir DIR [--znodes N] "
            + "[--in-flight N]";

    ProbeOptions {
        if (znodes < 1) {
            throw new IllegalArgumentException("--znodes must be >= 1: " + znodes);
        }
        if (maxInFlight < 1) {
            throw new IllegalArgumentException("--in-flight must be >= 1: " + maxInFlight);
        }
    }

    static ProbeOptions parse(String[] args) {
        Flavour flavour = null;
        Path dataDir = null;
        int znodes = DEFAULT_ZNODES;
        int inFlight = DEFAULT_IN_FLIGHT;
        boolean restart = false;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--flavour" -> flavour = Flavour.parse(value(args, ++i, arg));
                case "--data-dir" -> dataDir = Path.of(value(args, ++i, arg));
                case "--znodes" -> znodes = intValue(args, ++i, arg);
                case "--in-flight" -> inFlight = intValue(args, ++i, arg);
                case "--restart-phase" -> restart = true;
                default -> throw new IllegalArgumentException("unknown option '" + arg + "'; " + USAGE);
            }
        }
        if (flavour == null || dataDir == null) {
            throw new IllegalArgumentException("--flavour and --data-dir are required; " + USAGE);
        }
        return new ProbeOptions(flavour, znodes, dataDir, inFlight, restart);
    }

    /** The arguments that start this probe's restart phase on the same data. */
    List<String> restartArgs() {
        return List.of("--flavour", flavour.cliName(), "--data-dir", dataDir.toString(),
                "--znodes", Integer.toString(znodes), "--restart-phase");
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
