package dev.warden.bench.resources;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.cli.cluster.Flavour;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResourceComparisonTest {
    @TempDir
    Path dir;

    /** The whole probe in child JVMs, as ResourceComparison runs it, on a tiny tree. */
    @Test
    void wardenProbeOnATinyTreeReportsEveryFigure() throws Exception {
        int znodes = 3000;
        // A small snapCount: the server snapshots every 500 to 1,000 creates while loading.
        ProbeReport report = ResourceComparison.runProbe(Flavour.WARDEN, znodes, "512m", 1_000, 200, dir);
        try (var snapshots = java.nio.file.Files.list(dir.resolve("warden").resolve("snapshots"))) {
            assertTrue(snapshots.count() >= 4, "the probe's --snap-count reached the server");
        }
        assertEquals("warden", report.get(ProbeReport.FLAVOUR));
        assertEquals(znodes, (int) report.getDouble(ProbeReport.ZNODES));
        assertEquals(znodes + ZnodeLayout.parentCount(znodes), (int) report.getDouble(ProbeReport.ZNODES_WITH_PARENTS));
        // Each znode holds at least its 100-byte value and its path in the snapshot.
        assertTrue(report.getDouble(ProbeReport.SNAPSHOT_BYTES) > znodes * 130.0, report.format());
        assertTrue(report.getDouble(ProbeReport.HEAP_BYTES_PER_ZNODE) > 0, report.format());
        assertTrue(report.getDouble(ProbeReport.HEAP_BYTES_PER_WATCH) > 0, report.format());
        assertTrue(report.getDouble(ProbeReport.HEAP_BYTES_PER_IDLE_SESSION) > 0, report.format());
        assertTrue(report.getDouble(ProbeReport.RESTART_TO_SERVING_MS)
                >= report.getDouble(ProbeReport.RESTART_SERVER_START_MS), report.format());
        // the second restart replays a write to every znode of this tiny tree, and found the last one
        assertEquals(znodes, (int) report.getDouble(ProbeReport.LOG_TAIL_WRITES));
        assertTrue(report.getDouble(ProbeReport.RESTART_WITH_LOG_TO_SERVING_MS)
                >= report.getDouble(ProbeReport.RESTART_WITH_LOG_SERVER_START_MS), report.format());
        String table = FiguresTable.render(report, report);
        assertTrue(table.contains("| heap per znode | bytes |"), table);
        assertTrue(table.contains("| 1.00 |"), table);
    }

    @Test
    void sectionSaysWhatWasMeasuredAndHoldsTheTable() {
        ProbeReport warden = sample("100", "1000").put(ProbeReport.ZNODES_WITH_PARENTS, "1010")
                .put(ProbeReport.WATCHES, "1000");
        ProbeReport apache = sample("400", "2000");
        String section = ResourceComparison.section(warden, apache, 1000, "512m", ProbeOptions.DEFAULT_SNAP_COUNT);
        assertTrue(section.contains("with 1,000 znodes (plus 10 parents), 1,000 watches"), section);
        assertTrue(section.contains("-Xms512m -Xmx512m"), section);
        assertTrue(section.contains("| heap per znode | bytes | 100 | 400 | 0.25 |"), section);
        assertTrue(!section.contains(ResourceComparison.FIGURES.begin()), "the splicer adds the markers");
    }

    @Test
    void tableShowsTheRatioOfWardenToApache() {
        ProbeReport warden = sample("100", "1000");
        ProbeReport apache = sample("400", "2000");
        String table = FiguresTable.render(warden, apache);
        assertTrue(table.contains("| heap per znode | bytes | 100 | 400 | 0.25 |"), table);
        assertTrue(table.contains("| restart: JVM launch to first read served | ms | 1,000 | 2,000 | 0.50 |"), table);
    }

    private static ProbeReport sample(String heapPerZnode, String restartMs) {
        ProbeReport report = new ProbeReport();
        for (String key : new String[] {ProbeReport.RSS_BYTES_PER_ZNODE, ProbeReport.HEAP_BYTES_PER_WATCH,
                ProbeReport.IDLE_SESSIONS, ProbeReport.HEAP_BYTES_PER_IDLE_SESSION,
                ProbeReport.SNAPSHOT_BYTES, ProbeReport.SNAPSHOT_MS, ProbeReport.RESTART_SERVER_START_MS,
                ProbeReport.LOG_TAIL_WRITES, ProbeReport.RESTART_WITH_LOG_TO_SERVING_MS,
                ProbeReport.RESTART_WITH_LOG_SERVER_START_MS,
                ProbeReport.CREATE_MS, ProbeReport.HEAP_BASELINE_BYTES, ProbeReport.RSS_BASELINE_BYTES}) {
            report.put(key, 1);
        }
        return report.put(ProbeReport.HEAP_BYTES_PER_ZNODE, heapPerZnode)
                .put(ProbeReport.RESTART_TO_SERVING_MS, restartMs);
    }
}
