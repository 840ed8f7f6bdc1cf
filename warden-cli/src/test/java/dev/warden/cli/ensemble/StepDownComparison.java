package dev.warden.cli.ensemble;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.warden.cli.cluster.Flavour;
import dev.warden.cli.cluster.LocalCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;

/**
 * Opt-in measurement, not part of the default suite (a few minutes): Warden against Apache
 * ZooKeeper with ZooKeeper's default timing (tickTime 2000 ms, syncLimit 5), runs alternating
 * between the servers, each run a fresh 3-member ensemble:
 *
 * <ol>
 *   <li>SIGSTOP both followers: how long the leader still answers srvr with {@code Mode: leader};</li>
 *   <li>SIGSTOP the leader until the others lead, SIGCONT: how long it still says leader, and
 *       when it says follower.</li>
 * </ol>
 *
 * <pre>
 * mvn -B -q -pl warden-cli -am test -Dtest=StepDownComparison -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dwarden.stepdown.runs=5
 * </pre>
 * The figures are in docs/ENSEMBLE.md ("Stepping down").
 */
class StepDownComparison {
    /** Runs per server; the test is skipped unless it is set. */
    static final String RUNS_PROPERTY = "warden.stepdown.runs";
    private static final int TICK_TIME_MS = 2_000;
    private static final Duration TIMEOUT = Duration.ofSeconds(90);

    private record Run(int number, Flavour flavour, long frozenFollowersLeaderMs, long resumedLastLeaderMs,
                       long resumedFollowerMs) { }

    @Test
    void leaderStepDownTimesAgainstApacheZooKeeper() throws Exception {
        String configured = System.getProperty(RUNS_PROPERTY);
        assumeTrue(configured != null, "set -D" + RUNS_PROPERTY + "=N to run the comparison");
        int runsPerServer = Integer.parseInt(configured.trim());
        List<Run> runs = new ArrayList<>();
        for (int i = 0; i < 2 * runsPerServer; i++) {
            Flavour flavour = i % 2 == 0 ? Flavour.WARDEN : Flavour.APACHE;
            Run run = measure(i + 1, flavour);
            runs.add(run);
            System.out.println("run " + run.number() + " " + flavour + ": followers frozen, said leader for "
                    + run.frozenFollowersLeaderMs() + " ms; resumed after being replaced, last said leader at "
                    + run.resumedLastLeaderMs() + " ms, follower at " + run.resumedFollowerMs() + " ms");
        }
        Map<Flavour, List<Run>> byFlavour = new EnumMap<>(Flavour.class);
        runs.forEach(run -> byFlavour.computeIfAbsent(run.flavour(), f -> new ArrayList<>()).add(run));
        byFlavour.forEach((flavour, mine) -> System.out.println("median " + flavour + ": followers frozen "
                + median(mine.stream().map(Run::frozenFollowersLeaderMs).toList()) + " ms; resumed, last leader "
                + median(mine.stream().map(Run::resumedLastLeaderMs).toList()) + " ms, follower "
                + median(mine.stream().map(Run::resumedFollowerMs).toList()) + " ms"));
    }

    private static Run measure(int number, Flavour flavour) throws Exception {
        LocalCluster cluster = Ensembles.startCluster(flavour,
                Ensembles.runDir("step-down-comparison-" + number + "-" + flavour), TICK_TIME_MS);
        boolean passed = false;
        try {
            int leader = cluster.awaitQuorum(TIMEOUT);
            // Freeze in the steady state, at a random point of the heartbeat cycle: right after
            // the ensemble became whole the leader has just heard everyone (the sync).
            Thread.sleep(2L * TICK_TIME_MS + ThreadLocalRandom.current().nextLong(TICK_TIME_MS));
            long frozenMs = StepDownProbe.leaderServesAfterFollowersPausedMs(cluster, leader, TIMEOUT);
            leader = cluster.awaitQuorum(TIMEOUT);
            StepDownProbe.Resumed resumed = StepDownProbe.leaderResumedAfterTheOthersMovedOn(cluster, leader, TIMEOUT);
            cluster.awaitQuorum(TIMEOUT);
            passed = true;
            return new Run(number, flavour, frozenMs, resumed.lastLeaderAnswerMs(), resumed.followerAfterMs());
        } finally {
            Ensembles.closeAndDeleteIfPassed(cluster, passed);
        }
    }

    private static long median(List<Long> values) {
        List<Long> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
