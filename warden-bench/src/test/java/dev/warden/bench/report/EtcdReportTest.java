package dev.warden.bench.report;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.bench.compare.CompareOptions;
import dev.warden.bench.compare.CompareReport;
import dev.warden.bench.compare.DiskLatency;
import dev.warden.bench.compare.JvmSettings;
import dev.warden.bench.compare.ScenarioOutcome;
import dev.warden.bench.compare.Scenario;
import dev.warden.bench.compare.Suite;
import dev.warden.bench.compare.Topology;
import dev.warden.bench.load.ClientKind;
import dev.warden.bench.load.LoadResult;
import dev.warden.cli.cluster.Flavour;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The etcd section: Warden/etcd beside Warden/Apache, rows only for scenarios with a counterpart. */
class EtcdReportTest {
    private static LoadResult result(double opsPerSecond, long p99Us) {
        return new LoadResult("x", (long) opsPerSecond, 1000, opsPerSecond, p99Us / 2, p99Us / 2, p99Us, p99Us,
                p99Us, Map.of());
    }

    private static CompareReport report(List<Scenario> scenarios, List<ScenarioOutcome> outcomes) {
        CompareOptions options = new CompareOptions(List.of(Topology.STANDALONE), scenarios, 1, 2, ClientKind.APACHE,
                new JvmSettings(Path.of("java"), "cp", 512, 4 << 20), Path.of("work"), 1000, 0, 2, 0, true);
        return new CompareReport(ZonedDateTime.parse("2026-11-21T09:00:00Z[UTC]"),
                new MachineInfo("Test CPU", 2, 4096, "Linux 6", "Java 17"), new DiskLatency(100, 200, 10), options,
                outcomes);
    }

    @Test
    void ratiosOfMediansAndPerRound() {
        Scenario setData = Suite.select(List.of("setData")).get(0);
        Scenario exists = Suite.select(List.of("exists")).get(0);
        ScenarioOutcome put = new ScenarioOutcome(Topology.STANDALONE, setData,
                Map.of(Flavour.APACHE, List.of(result(10_000, 8000), result(10_000, 8000)),
                        Flavour.WARDEN, List.of(result(30_000, 2000), result(30_000, 2000))),
                Map.of(), List.of(result(15_000, 4000), result(10_000, 4000)), null);
        ScenarioOutcome noCounterpart = new ScenarioOutcome(Topology.STANDALONE, exists,
                Map.of(Flavour.WARDEN, List.of(result(1, 1))), Map.of());
        String md = EtcdReport.render(report(List.of(setData, exists), List.of(put, noCounterpart)));
        // etcd's median of 15,000 and 10,000 is 12,500: Warden/etcd 2.40×, per round 2.00 and 3.00
        assertTrue(md.contains("| setData | put | 16×32, 1 KiB | 10,000 | 30,000 | 12,500 | 3.00× | 2.40× | 8.00 | 2.00 | 4.00"
                + " | 0.50× | 2.00, 3.00 |"), md);
        assertFalse(md.contains("| exists"), md);
    }

    @Test
    void etcdThatDidNotRunIsSaidWhy() {
        Scenario lock = Suite.select(List.of("lock8")).get(0);
        ScenarioOutcome outcome = new ScenarioOutcome(Topology.STANDALONE, lock,
                Map.of(Flavour.WARDEN, List.of(result(900, 10_000))), Map.of(), List.of(),
                "not available: no etcd on the PATH");
        String md = EtcdReport.render(report(List.of(lock), List.of(outcome)));
        assertTrue(md.contains("- lock8: etcd not available: no etcd on the PATH"), md);
        assertTrue(md.contains("| lock8 | Lock + lease |"), md);
    }
}
