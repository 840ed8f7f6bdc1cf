package dev.warden.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The median of repeated runs, figure by figure, and the servers' CPU per operation. */
class LoadResultTest {
    private static LoadResult run(double opsPerSecond, long p999Us, Map<String, Long> errors) {
        return new LoadResult("setData", (long) opsPerSecond, 1000, opsPerSecond, 100, 200, 300, p999Us, p999Us + 1,
                errors);
    }

    @Test
    void eachFigureIsTheMedianOfThatFigureAndErrorsAreSummed() {
        LoadResult median = LoadResult.medianOf(List.of(
                run(30_000, 9_000, Map.of("CONNECTION_LOSS", 2L)),
                run(10_000, 1_000, Map.of()),
                run(20_000, 50_000, Map.of("CONNECTION_LOSS", 1L, "NO_NODE", 4L))));
        assertEquals(20_000, median.opsPerSecond());
        assertEquals(20_000, median.operations());
        assertEquals(9_000, median.p999Us()); // from another run than the ops/s: figure by figure
        assertEquals(9_001, median.maxUs());
        assertEquals(Map.of("CONNECTION_LOSS", 3L, "NO_NODE", 4L), median.errors());
    }

    @Test
    void anEvenCountTakesTheMeanOfTheTwoMiddleRuns() {
        LoadResult median = LoadResult.medianOf(List.of(run(10_000, 1_000, Map.of()), run(40_000, 4_000, Map.of()),
                run(20_000, 2_000, Map.of()), run(30_000, 3_000, Map.of())));
        assertEquals(25_000, median.opsPerSecond());
        assertEquals(2_500, median.p999Us());
    }

    @Test
    void theServersCpuIsTheMedianOfTheRunsThatMeasuredIt() {
        LoadResult a = withCpu(run(10_000, 1_000, Map.of()), 40);
        LoadResult b = withCpu(run(20_000, 1_000, Map.of()), 90);
        LoadResult unmeasured = run(30_000, 1_000, Map.of());
        assertEquals(65, LoadResult.medianOf(List.of(a, unmeasured, b)).serverCpuUsPerOp());
        assertFalse(LoadResult.medianOf(List.of(unmeasured, unmeasured)).hasServerCpu());
        assertTrue(a.summaryLine().endsWith("\"errors\":{},\"serverCpuUsPerOp\":40.0}"), a.summaryLine());
        assertTrue(a.describe().endsWith("; server CPU 40.0 µs/op"), a.describe());
        assertFalse(unmeasured.summaryLine().contains("serverCpu"), unmeasured.summaryLine());
    }

    @Test
    void theServersCpuPerOperationDividesTheWindowsCpuByItsOperations() {
        org.HdrHistogram.Histogram histogram = new org.HdrHistogram.Histogram(LoadRecorder.HIGHEST_LATENCY_US, 3);
        for (int i = 0; i < 400; i++) {
            histogram.recordValue(100);
        }
        assertEquals(50.0, LoadResult.of("setData", histogram, 1000, Map.of(), 20_000_000).serverCpuUsPerOp());
        assertFalse(LoadResult.of("setData", histogram, 1000, Map.of(), -1).hasServerCpu());
        assertFalse(LoadResult.of("setData", new org.HdrHistogram.Histogram(3), 1000, Map.of(), 5).hasServerCpu());
    }

    private static LoadResult withCpu(LoadResult r, double serverCpuUsPerOp) {
        return new LoadResult(r.workload(), r.operations(), r.measuredMs(), r.opsPerSecond(), r.p50Us(), r.p90Us(),
                r.p99Us(), r.p999Us(), r.maxUs(), r.errors(), serverCpuUsPerOp);
    }

    @Test
    void oneRunIsItsOwnMedianAndNoRunsIsAnError() {
        LoadResult only = run(5_000, 700, Map.of());
        assertSame(only, LoadResult.medianOf(List.of(only)));
        assertThrows(IllegalArgumentException.class, () -> LoadResult.medianOf(List.of()));
    }
}
