package dev.warden.sim;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code warden sim} command: runs seeds {@code S..S+N-1}, prints failures with their replay
 * commands and one summary line, and exits 1 if any seed failed (2 for bad arguments).
 * {@code --seeds N --seed S --members 3|5 --observers 0..2 --steps K [--verbose] [--broken-driver]
 * [--trusting-recovery] [--reconfigure] [--weighted] [--observer-masters]}.
 */
public final class SimMain {
    static final String USAGE = "usage: warden sim [--seeds N] [--seed S] [--members 3|5] [--observers 0..2]"
            + " [--steps K] [--verbose] [--broken-driver] [--trusting-recovery] [--reconfigure]"
            + " [--weighted] [--observer-masters]";

    /** Parsed command line. */
    record Arguments(long firstSeed, int seeds, RandomRun.Options options, boolean verbose) {
        static Arguments parse(String[] args) {
            long firstSeed = 1;
            int seeds = 1;
            int members = 3;
            int observers = 0;
            int steps = 8_000;
            boolean broken = false;
            boolean trusting = false;
            boolean reconfigure = false;
            boolean weighted = false;
            boolean observerMasters = false;
            boolean verbose = false;
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--seeds" -> seeds = Integer.parseInt(value(args, ++i));
                    case "--seed" -> firstSeed = Long.parseLong(value(args, ++i));
                    case "--members" -> members = Integer.parseInt(value(args, ++i));
                    case "--observers" -> observers = Integer.parseInt(value(args, ++i));
                    case "--steps" -> steps = Integer.parseInt(value(args, ++i));
                    case "--broken-driver" -> broken = true;
                    case "--trusting-recovery" -> trusting = true;
                    case "--reconfigure" -> reconfigure = true;
                    case "--weighted" -> weighted = true;
                    case "--observer-masters" -> observerMasters = true;
                    case "--verbose" -> verbose = true;
                    case "--help", "-h" -> throw new IllegalArgumentException(USAGE);
                    default -> throw new IllegalArgumentException("unknown argument " + args[i]);
                }
            }
            if (seeds < 1) {
                throw new IllegalArgumentException("--seeds must be at least 1, got " + seeds);
            }
            if (weighted && reconfigure) {
                throw new IllegalArgumentException("--weighted and --reconfigure cannot be combined (a hierarchical"
                        + " quorum is changed by a whole new member list, which the simulated operator does not write)");
            }
            return new Arguments(firstSeed, seeds, new RandomRun.Options(members, observers, steps, broken, trusting,
                    reconfigure, weighted, observerMasters),
                    verbose);
        }

        private static String value(String[] args, int index) {
            if (index >= args.length) {
                throw new IllegalArgumentException("missing value after " + args[index - 1]);
            }
            return args[index];
        }
    }

    private SimMain() {
    }

    public static void main(String[] args) {
        Arguments arguments;
        try {
            arguments = Arguments.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("warden sim: " + e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
            return;
        }
        System.exit(run(arguments, System.out));
    }

    /** Runs the seeds; returns the exit code. */
    static int run(Arguments arguments, PrintStream out) {
        RandomRun.Options options = arguments.options();
        List<Long> failed = new ArrayList<>();
        long committed = 0;
        long acknowledged = 0;
        long startNs = System.nanoTime();
        for (long seed = arguments.firstSeed(); seed < arguments.firstSeed() + arguments.seeds(); seed++) {
            try {
                RandomRun.Outcome outcome = RandomRun.run(seed, options, arguments.verbose() ? out::println : line -> { });
                committed += outcome.committedEntries();
                acknowledged += outcome.acknowledgedWrites();
                if (arguments.seeds() == 1 || arguments.verbose()) {
                    out.printf("seed %d ok: %d entries committed, %d writes acknowledged, %d ms simulated, trace %x; %s%n",
                            seed, outcome.committedEntries(), outcome.acknowledgedWrites(), outcome.simulatedMs(),
                            outcome.traceHash(), outcome.faults());
                }
            } catch (RandomRun.Failure failure) {
                failed.add(seed);
                out.println(failure.getMessage());
            }
        }
        long elapsedMs = (System.nanoTime() - startNs) / 1_000_000;
        out.printf("sim: %d seeds from %d, %d members + %d observers%s, %d steps: %d passed, %d failed%s; "
                        + "%d entries committed, %d writes acknowledged, %.1f s%n",
                arguments.seeds(), arguments.firstSeed(), options.members(), options.observers(),
                options.reconfigure() ? " + " + RandomRun.SPARES + " spares, reconfiguring" : "", options.steps(),
                arguments.seeds() - failed.size(), failed.size(), failed.isEmpty() ? "" : " " + failed,
                committed, acknowledged, elapsedMs / 1000.0);
        return failed.isEmpty() ? 0 : 1;
    }
}
