package dev.warden.server.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same seeded random workload through the Apache client against two targets, compared
 * operation by operation and, at checkpoints, event stream by event stream: two single servers
 * ({@code -Dwarden.diff.targets}, default Apache and Warden), and two three-member ensembles
 * ({@code -Dwarden.diff.ensembleTargets}, default Apache and Warden) with the sessions spread over
 * the members. Reproduce a failure with the printed {@code -Dwarden.diff.seed}; the ensemble run's
 * length is {@code -Dwarden.diff.ensembleOps} (default {@value #OPERATIONS}, about 35 s here).
 */
class DifferentialTest {
    private static final int OPERATIONS = 10_000;
    private static final int EVENT_CHECK_INTERVAL = 100;
    private static final int HISTORY_SHOWN = 15;

    @Test
    void randomWorkloadGivesIdenticalResults(@TempDir Path dir) throws Exception {
        compare(Targets.differentialPair(), OPERATIONS, false, dir);
    }

    /**
     * Reads are served by each session's own member, so a session that acts after another one
     * syncs first on both sides (see {@link DiffSide}); then results are as deterministic as on
     * one server.
     */
    @Test
    void randomWorkloadGivesIdenticalResultsOnThreeMemberEnsembles(@TempDir Path dir) throws Exception {
        String configured = System.getProperty("warden.diff.ensembleOps");
        int operations = configured != null ? Integer.parseInt(configured) : OPERATIONS;
        compare(Targets.ensembleDifferentialPair(), operations, true, dir);
    }

    private static void compare(List<String> pair, int operations, boolean ensembles, Path dir)
            throws Exception {
        String seedProperty = System.getProperty("warden.diff.seed");
        long seed = seedProperty != null ? Long.parseLong(seedProperty) : new Random().nextLong();
        Deque<String> history = new ArrayDeque<>();
        long startNs = System.nanoTime();
        try (TargetServer first = Targets.start(pair.get(0), dir.resolve("first"));
             TargetServer second = Targets.start(pair.get(1), dir.resolve("second"));
             DiffSide left = new DiffSide(first, ensembles);
             DiffSide right = new DiffSide(second, ensembles)) {
            DiffOpGenerator generator = new DiffOpGenerator(seed);
            System.out.println("differential seed " + seed + " targets " + pair);
            int failedOps = 0;
            int eventsCompared = 0;
            java.util.Map<String, Integer> outcomes = new java.util.TreeMap<>();
            for (int i = 0; i < operations; i++) {
                DiffOp op = generator.next();
                String expected;
                String actual;
                try {
                    expected = left.execute(op);
                    actual = right.execute(op);
                } catch (AssertionError e) {
                    throw failure(seed, history, op + ": " + e.getMessage());
                }
                remember(history, op + " -> " + expected);
                if (!expected.equals(actual)) {
                    throw failure(seed, history, op + "\n  " + left.name() + ": " + expected + "\n  "
                        + right.name() + ": " + actual);
                }
                learnSequentialNames(generator, expected);
                failedOps += expected.startsWith("err") ? 1 : 0;
                outcomes.merge(op.kind() + " " + outcomeClass(expected), 1, Integer::sum);
                if (op.kind() == DiffOp.Kind.CLOSE_SESSION || i % EVENT_CHECK_INTERVAL == 0 || i == operations - 1) {
                    eventsCompared += compareEvents(seed, history, left, right);
                }
            }
            System.out.println("differential " + pair + ": " + operations + " ops in "
                + (System.nanoTime() - startNs) / 1_000_000 + " ms, " + failedOps + " failed alike, "
                + eventsCompared + " watch events compared; outcomes " + outcomes);
            assertTrue(eventsCompared > operations / 100, "too few watch events: " + eventsCompared);
            // A workload that mostly fails or mostly succeeds would compare little.
            assertTrue(failedOps > operations / 10 && failedOps < operations * 9 / 10,
                "unbalanced workload: " + failedOps + " failing ops, seed " + seed);
        }
    }

    private static int compareEvents(long seed, Deque<String> history, DiffSide left, DiffSide right)
            throws Exception {
        List<List<String>> expected = left.drainEvents();
        List<List<String>> actual = right.drainEvents();
        if (!expected.equals(actual)) {
            throw failure(seed, history, "watch events differ\n  " + left.name() + ": " + expected + "\n  "
                + right.name() + ": " + actual);
        }
        return expected.stream().mapToInt(List::size).sum();
    }

    private static String outcomeClass(String outcome) {
        return outcome.startsWith("err ") ? outcome.split(" ")[1] : "ok";
    }

    private static void learnSequentialNames(DiffOpGenerator generator, String outcome) {
        for (String word : outcome.split("[ \\[\\],]+")) {
            if (word.contains("/s-")) {
                generator.learn(word);
            }
        }
    }

    private static void remember(Deque<String> history, String line) {
        if (history.size() == HISTORY_SHOWN) {
            history.removeFirst();
        }
        history.addLast(line);
    }

    private static AssertionError failure(long seed, Deque<String> history, String what) {
        return new AssertionError("differential mismatch (reproduce with -Dwarden.diff.seed=" + seed + ")\n"
            + "last operations:\n  " + String.join("\n  ", history) + "\nmismatch at " + what);
    }
}
