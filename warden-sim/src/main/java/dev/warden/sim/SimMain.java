package dev.warden.sim;

/**
 * Runs seeded simulations from the command line:
 * {@code SimMain [--seeds N] [--seed S] [--members 3|5] [--observers 0..2] [--steps K] [--broken-driver] [--verbose]}.
 * With --seed only that seed runs; with --seeds, seeds S..S+N-1. Exits 1 on the first failure.
 */
public final class SimMain {
    private SimMain() {
    }

    public static void main(String[] args) {
        long firstSeed = 1;
        int seeds = 1;
        int members = 3;
        int steps = 4_000;
        int observers = 0;
        boolean broken = false;
        boolean verbose = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--seeds" -> seeds = Integer.parseInt(value(args, ++i));
                case "--seed" -> firstSeed = Long.parseLong(value(args, ++i));
                case "--members" -> members = Integer.parseInt(value(args, ++i));
                case "--observers" -> observers = Integer.parseInt(value(args, ++i));
                case "--steps" -> steps = Integer.parseInt(value(args, ++i));
                case "--broken-driver" -> broken = true;
                case "--verbose" -> verbose = true;
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                        + "; usage: --seeds N --seed S --members 3|5 --observers 0..2 --steps K [--broken-driver] [--verbose]");
            }
        }
        RandomRun.Options options = new RandomRun.Options(members, observers, steps, broken);
        for (long seed = firstSeed; seed < firstSeed + seeds; seed++) {
            try {
                RandomRun.Outcome outcome = RandomRun.run(seed, options, verbose ? System.out::println : line -> { });
                System.out.printf("seed %d ok: %d entries committed, %d writes acknowledged, %d ms simulated, trace %x%n",
                        seed, outcome.committedEntries(), outcome.acknowledgedWrites(), outcome.simulatedMs(),
                        outcome.traceHash());
            } catch (RandomRun.Failure failure) {
                System.out.println(failure.getMessage());
                System.exit(1);
            }
        }
    }

    private static String value(String[] args, int index) {
        if (index >= args.length) {
            throw new IllegalArgumentException("missing value after " + args[index - 1]);
        }
        return args[index];
    }
}
