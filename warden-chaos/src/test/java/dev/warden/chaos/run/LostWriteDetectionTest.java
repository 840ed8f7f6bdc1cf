package dev.warden.chaos.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.chaos.check.CheckResult;
import dev.warden.chaos.check.RegisterChecker;
import dev.warden.chaos.check.SetChecker;
import dev.warden.chaos.nemesis.FaultKind;
import dev.warden.cli.cluster.Flavour;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The whole pipeline finds a real loss: Warden members told not to fsync their log
 * ({@code forceSync=no}) all lose power at once, so writes they acknowledged are gone when they
 * come back, and the set checker must report acknowledged elements missing from the final read.
 * Without this, a chaos run that passes could mean the faults or the checkers do nothing: if the
 * power cut took nothing back, or the checker missed the loss, this test fails.
 *
 * <p>The members must come back with a history they can prove, only a shorter one, or no leader
 * is ever elected and the final read never happens (the checkers then say UNKNOWN). With
 * {@code forceSync=no} the log is never fsynced, so after the cut every segment is empty, while
 * a snapshot is fsynced when written: a member that took one before the cut holds a snapshot
 * whose log is gone, which proves nothing, so it sets its history aside and waits for a leader
 * ({@code resyncRequired}; docs/STORAGE.md, "When a server refuses to start"). Whether a member
 * had taken one depended on how many writes the machine managed before the cut (a snapshot
 * comes every 1000-2000 transactions with the suite's {@code snapCount=2000}); when two or three
 * had, no leader could be elected. Here snapshots are put out of reach ({@code snapCount} far
 * above what the run writes), so every member's history after the cut is the empty tree: provable,
 * and missing every acknowledged write.
 */
class LostWriteDetectionTest {
    /** Far above the few thousand transactions the run writes, so no member snapshots before the cut. */
    private static final String NO_SNAPSHOT_IN_THIS_RUN = "snapCount=100000000";

    @Test
    void membersThatAcknowledgeBeforeFsyncLoseAcknowledgedWritesInAPowerCutAndTheCheckersSaySo() throws Exception {
        Path runDir = Files.createDirectories(Path.of("target", "chaos-ci", "lost-writes-" + System.currentTimeMillis())
                .toAbsolutePath());
        Leftovers.killUnder(runDir.getParent());
        RunOptions options = new RunOptions(Flavour.WARDEN, 3, Duration.ofSeconds(5), 1, List.of(FaultKind.POWER_CUT),
                runDir, 500, 5_000, 2_000, 2_000, false, ManagementFactory.getRuntimeMXBean().getClassPath(),
                List.of("forceSync=no", NO_SNAPSHOT_IN_THIS_RUN));
        RunResult result = new ChaosRun(options, RunLog.to(System.out)).run();

        String where = "; checks: " + result.checks() + "; log: " + result.log();
        assertEquals(List.of(FaultKind.POWER_CUT), result.windows().stream().map(w -> w.kind()).toList(),
                "exactly one power cut" + where);
        CheckResult set = result.checks().stream().filter(c -> c.checker().equals(SetChecker.NAME)).findFirst()
                .orElseThrow();
        assertEquals(CheckResult.Verdict.FAIL, set.verdict(),
                "a power cut of members that never fsync must lose acknowledged set elements" + where);
        assertTrue(set.anomalies().stream().anyMatch(a -> a.what().startsWith("lost: ")),
                "the set checker names acknowledged elements that are gone" + where);
        CheckResult registers = result.checks().stream().filter(c -> c.checker().equals(RegisterChecker.NAME))
                .findFirst().orElseThrow();
        assertTrue(registers.anomalies().stream().anyMatch(a -> a.what().startsWith("register vanished")),
                "the registers written before the cut are gone, and the register checker says so" + where);
    }
}
