package dev.warden.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;

/** The report's ratios, verdicts and "not available" rows, from figures fixed by the test. */
class MarkdownReportTest {
    private static final Scenario SET_DATA = Suite.select(List.of("setData")).get(0);
    private static final Scenario ONE_BY_ONE = Suite.select(List.of(Suite.WRITE_ONE_BY_ONE)).get(0);
    private static final Scenario READ_ONE_BY_ONE = Suite.select(List.of(Suite.READ_ONE_BY_ONE)).get(0);
    private static final DiskLatency DISK = new DiskLatency(110, 180, 2000);

    private static LoadResult result(double opsPerSecond, long p50Us, long p999Us) {
        return new LoadResult("setData", (long) opsPerSecond * 10, 10_000, opsPerSecond, p50Us, p50Us * 2,
                p50Us * 3, p999Us, p999Us * 2, Map.of());
    }

    /** An outcome of one round: one result per flavour that ran. */
    private static ScenarioOutcome oneRound(Topology topology, Scenario scenario, Map<Flavour, LoadResult> results,
                                    Map<Flavour, String> missing) {
        Map<Flavour, List<LoadResult>> runs = new EnumMap<>(Flavour.class);
        results.forEach((flavour, result) -> runs.put(flavour, List.of(result)));
        return new ScenarioOutcome(topology, scenario, runs, missing);
    }

    private static CompareReport report() {
        ScenarioOutcome standalone = oneRound(Topology.STANDALONE, SET_DATA,
                Map.of(Flavour.APACHE, result(40_000, 1000, 9000), Flavour.WARDEN, result(100_000, 400, 3000)),
                Map.of());
        ScenarioOutcome latency = oneRound(Topology.STANDALONE, ONE_BY_ONE,
                Map.of(Flavour.APACHE, result(500, 2000, 4000), Flavour.WARDEN, result(600, 1500, 3000)), Map.of());
        ScenarioOutcome ensemble = oneRound(Topology.ENSEMBLE3, SET_DATA,
                Map.of(Flavour.APACHE, result(20_000, 2000, 20_000)),
                Map.of(Flavour.WARDEN, "not available: members run standalone"));
        return reportOf(List.of(Topology.STANDALONE, Topology.ENSEMBLE3), List.of(SET_DATA, ONE_BY_ONE), 1,
                List.of(standalone, latency, ensemble));
    }

    /** A run on the test machine and disk, started 2026-11-21 09:00 UTC, 1 s warm-up and 2 s measured. */
    private static CompareReport reportOf(List<Topology> topologies, List<Scenario> scenarios, int rounds,
                                          List<ScenarioOutcome> outcomes) {
        CompareOptions options = new CompareOptions(topologies, scenarios, 1, 2, ClientKind.APACHE,
                new JvmSettings(Path.of("java"), "cp", 512, 4 << 20), Path.of("work"), 1000, 0, rounds, 0);
        return new CompareReport(ZonedDateTime.parse("2026-11-21T09:00:00Z[UTC]"),
                new MachineInfo("Test CPU", 2, 4096, "Linux 6", "Java 17"), DISK, options, outcomes);
    }

    @Test
    void ratiosAndVerdictsFollowTheFigures() {
        String md = MarkdownReport.render(report());
        assertTrue(md.contains("| setData | 16×32, 1 KiB | 40,000 | 100,000 | 2.50× | 3.00 | 1.20 | 0.40× | 0.33× | 0.40×"
                + " | n/a | ops/s ≥ 2× met |"), md);
        assertTrue(md.contains("| setData1x1 | 1×1, 1 KiB | 500 | 600 | 1.20× |"), md);
        assertTrue(md.contains("p50 ≤ 0.5× **missed**"), md); // 1500 / 2000 = 0.75
        assertTrue(md.contains("Test CPU, 2 cores, 4096 MiB RAM"), md);
        assertTrue(md.contains("2026-11-21 09:00 UTC"), md);
        assertTrue(md.contains("syncs a 1 KiB write in 110 µs (p50; p99 180 µs)"), md);
        assertTrue(!md.contains("Floor under one write"), md); // getData1x1 did not run
    }

    @Test
    void theFloorUnderOneWriteInFlightIsTheFasterReadPlusOneFsync() {
        ScenarioOutcome reads = oneRound(Topology.STANDALONE, READ_ONE_BY_ONE,
                Map.of(Flavour.APACHE, result(9_000, 100, 300), Flavour.WARDEN, result(11_000, 90, 250)), Map.of());
        ScenarioOutcome writes = oneRound(Topology.STANDALONE, ONE_BY_ONE,
                Map.of(Flavour.APACHE, result(3_500, 280, 900), Flavour.WARDEN, result(3_700, 265, 800)), Map.of());
        ScenarioOutcome ensembleReads = oneRound(Topology.ENSEMBLE3, READ_ONE_BY_ONE,
                Map.of(Flavour.APACHE, result(9_000, 120, 300), Flavour.WARDEN, result(11_000, 95, 250)), Map.of());
        ScenarioOutcome ensembleWrites = oneRound(Topology.ENSEMBLE3, ONE_BY_ONE,
                Map.of(Flavour.APACHE, result(1_600, 615, 900)), Map.of(Flavour.WARDEN, "not available: test"));
        String md = MarkdownReport.render(reportOf(List.of(Topology.STANDALONE, Topology.ENSEMBLE3),
                List.of(READ_ONE_BY_ONE, ONE_BY_ONE), 1, List.of(reads, writes, ensembleReads, ensembleWrites)));
        // standalone: min(100, 90) + 110 = 200 µs = 0.71 × 280 µs
        assertTrue(md.contains("getData1x1 p50 of the faster server) 90 µs + one fsync of the log (p50) 110 µs"
                + " = 200 µs, which is 0.71× Apache ZooKeeper's setData1x1 p50 of 280 µs."), md);
        assertTrue(md.contains("much below 0.71× on this machine"), md);
        // 3 members: the floor needs only Apache's write, and is called a lower bound
        assertTrue(md.contains("95 µs + one fsync of the log (p50) 110 µs = 205 µs, which is 0.33×"), md);
        assertTrue(md.contains("so this is a lower bound only"), md);
    }

    @Test
    void roundsAreReportedAsMediansWithTheRatioOfEachRound() {
        ScenarioOutcome threeRounds = new ScenarioOutcome(Topology.ENSEMBLE3, SET_DATA, Map.of(
                Flavour.APACHE, List.of(result(20_000, 2000, 20_000), result(25_000, 1800, 30_000),
                        result(10_000, 4000, 90_000)),
                Flavour.WARDEN, List.of(result(50_000, 900, 8_000), result(40_000, 1000, 9_000),
                        result(60_000, 800, 7_000))), Map.of());
        String md = MarkdownReport.render(reportOf(List.of(Topology.ENSEMBLE3), List.of(SET_DATA), 3,
                List.of(threeRounds)));
        // medians: Apache 20,000 ops/s and p99.9 30 ms, Warden 50,000 ops/s and p99.9 8 ms
        assertTrue(md.contains("| setData | 16×32, 1 KiB | 20,000 | 50,000 | 2.50× |"), md);
        assertTrue(md.contains("| 0.27× |"), md);
        assertTrue(md.contains("ops/s ≥ 5× **missed**; p99.9 ≤ 0.5× met | 2.50, 1.60, 6.00 |"), md);
        assertTrue(md.contains("ran 3 times against each server"), md);
    }

    @Test
    void theServersCpuPerOperationIsShownRatioedAndJudged() {
        Scenario storm = Suite.select(List.of("sessionStorm16")).get(0);
        ScenarioOutcome cheap = oneRound(Topology.STANDALONE, storm, Map.of(
                Flavour.APACHE, withCpu(result(6_000, 2000, 9000), 300), Flavour.WARDEN, withCpu(result(7_000, 1800, 8000), 90)),
                Map.of());
        ScenarioOutcome dear = oneRound(Topology.ENSEMBLE3, storm, Map.of(
                Flavour.APACHE, withCpu(result(2_000, 6000, 30_000), 600), Flavour.WARDEN, result(3_000, 5000, 20_000)),
                Map.of());
        String md = MarkdownReport.render(reportOf(List.of(Topology.STANDALONE, Topology.ENSEMBLE3), List.of(storm), 1,
                List.of(cheap, dear)));
        assertTrue(md.contains("| 0.30× | server CPU/op ≤ 0.33× met |"), md); // 90 / 300
        assertTrue(md.contains("| n/a | server CPU/op ≤ 0.33× ? |"), md); // Warden's CPU was not measured
        assertTrue(md.contains("| standalone | sessionStorm16 | Warden | 7,000 | 1.80 | 3.60 | 5.40 | 8.00 | 16.00 | 90.0 | 0 |"),
                md);
        assertTrue(md.contains("| 3 members | sessionStorm16 | Warden | 3,000 | 5.00 | 10.00 | 15.00 | 20.00 | 40.00 | n/a | 0 |"),
                md);
    }

    private static LoadResult withCpu(LoadResult r, double serverCpuUsPerOp) {
        return new LoadResult(r.workload(), r.operations(), r.measuredMs(), r.opsPerSecond(), r.p50Us(), r.p90Us(),
                r.p99Us(), r.p999Us(), r.maxUs(), r.errors(), serverCpuUsPerOp);
    }

    @Test
    void aFlavourThatDidNotRunIsNamedWithItsReason() {
        String md = MarkdownReport.render(report());
        assertTrue(md.contains("- Warden: not available: members run standalone"), md);
        assertTrue(md.contains("| setData | 16×32, 1 KiB | 20,000 | n/a | n/a |"), md);
        assertTrue(md.contains("ops/s ≥ 5× ?; p99.9 ≤ 0.5× ?"), md);
        assertTrue(md.contains("| 3 members | setData | Warden | n/a | | | | | | | not run |"), md);
    }

    @Test
    void plotIsWellFormedSvgWithBothServersPerScenario() throws Exception {
        String svg = SvgPlot.render(report());
        DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
        assertEquals(4, svg.split(">setData<", -1).length - 1, svg); // 2 topologies × 2 panels
        assertTrue(svg.contains(">100.0k<") && svg.contains(">40.0k<"), svg);
        assertTrue(svg.contains(">n/a<"), svg);
    }

    @Test
    void splicingNeedsBothMarkersInOrder() {
        String doc = "a\n" + DocSplicer.BEGIN + "\nold\n" + DocSplicer.END + "\nb\n";
        assertEquals("a\n" + DocSplicer.BEGIN + "\nnew\n" + DocSplicer.END + "\nb\n", DocSplicer.splice(doc, "new\n"));
        assertThrows(IllegalArgumentException.class, () -> DocSplicer.splice("no markers", "x"));
        assertThrows(IllegalArgumentException.class,
                () -> DocSplicer.splice(DocSplicer.END + DocSplicer.BEGIN, "x"));
    }
}
