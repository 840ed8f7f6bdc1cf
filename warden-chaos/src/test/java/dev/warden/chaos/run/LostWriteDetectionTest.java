package dev.warden.chaos.run;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.chaos.check.CheckResult;
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
 * come back, and the checkers must say so. Without this, a chaos run that passes could mean the
 * faults or the checkers do nothing.
 */
class LostWriteDetectionTest {
    @Test
    void membersThatAcknowledgeBeforeFsyncLoseAcknowledgedWritesInAPowerCutAndTheCheckersSaySo() throws Exception {
        Path runDir = Files.createDirectories(Path.of("target", "chaos-ci", "lost-writes-" + System.currentTimeMillis())
                .toAbsolutePath());
        RunOptions options = new RunOptions(Flavour.WARDEN, 3, Duration.ofSeconds(5), 1, List.of(FaultKind.POWER_CUT),
                runDir, 500, 5_000, 2_000, 2_000, false, ManagementFactory.getRuntimeMXBean().getClassPath(),
                List.of("forceSync=no"));
        RunResult result = new ChaosRun(options, RunLog.to(System.out)).run();

        List<String> failed = result.checks().stream().filter(c -> c.verdict() == CheckResult.Verdict.FAIL)
                .map(CheckResult::checker).toList();
        assertTrue(failed.stream().anyMatch(name -> name.startsWith("set") || name.startsWith("register")
                        || name.startsWith("queue") || name.startsWith("sequential")),
                "a power cut of members that never fsync must lose acknowledged writes; checks: " + result.checks()
                        + "; log: " + result.log());
    }
}
