package dev.warden.chaos.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.chaos.check.CheckResult;
import dev.warden.chaos.nemesis.FaultKind;
import dev.warden.chaos.net.NetworkMode;
import dev.warden.chaos.report.HistoryJson;
import dev.warden.chaos.report.HtmlReport;
import dev.warden.cli.cluster.Flavour;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The build's chaos run: three Warden member processes under faults drawn from every kind with a
 * fixed seed for {@value #FAULT_SECONDS} s (about two and a half minutes with start, heal and
 * checks), every checker passing. The nemesis deals kinds like a shuffled deck, so with this seed
 * (and libfaketime) the first eight are client-cutoff, empty-data-dir, net-slow, power-cut,
 * fsync-fail, partition-leader, disk-full and clock, then crash-lose-unsynced: process, network,
 * clock, disk and data-at-rest faults in one short run. The report and history stay in
 * target/chaos-ci for a reader of a failure. The network is {@code auto}: as root (CI) each member
 * runs in its own network namespace and partitions are iptables rules; elsewhere the relays make
 * them, and the run log says why. Without libfaketime the clock fault is left out and the run says so.
 */
class ChaosSmokeTest {
    private static final int FAULT_SECONDS = 120;
    /** Fixed so a failure replays the same faults; changed on purpose, not at random. */
    private static final long SEED = 20_338_409;

    @Test
    void threeWardenMembersUnderEveryFaultKeepEveryPromise() throws Exception {
        Path runDir = Files.createDirectories(Path.of("target", "chaos-ci", "warden-seed" + SEED + "-"
                + System.currentTimeMillis()).toAbsolutePath());
        Leftovers.killUnder(runDir.getParent());
        RunOptions options = new RunOptions(Flavour.WARDEN, 3, Duration.ofSeconds(FAULT_SECONDS), SEED,
                List.of(FaultKind.values()), runDir, 500, 5_000, 3_000, 6_000, false,
                ManagementFactory.getRuntimeMXBean().getClassPath(), List.of(), NetworkMode.AUTO);
        RunResult result = new ChaosRun(options, RunLog.to(System.out)).run();
        HistoryJson.write(result, runDir.resolve("history.json"));
        HtmlReport.write(result, runDir.resolve("report.html"), "history.json");

        String where = " (report " + runDir.resolve("report.html") + ")";
        assertTrue(result.windows().size() >= 4, "only " + result.windows().size() + " faults" + where);
        for (CheckResult check : result.checks()) {
            assertFalse(check.verdict() == CheckResult.Verdict.FAIL, check.checker() + ": " + check.anomalies() + where);
        }
        assertEquals(0, result.anomalyCount(), where);
        assertTrue(result.ops().stream().filter(op -> op.ok() && op.f().equals("cas")).count() > 100,
                "the register workload made progress" + where);
    }
}
