package dev.warden.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The median of repeated runs, figure by figure. */
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
    void oneRunIsItsOwnMedianAndNoRunsIsAnError() {
        LoadResult only = run(5_000, 700, Map.of());
        assertSame(only, LoadResult.medianOf(List.of(only)));
        assertThrows(IllegalArgumentException.class, () -> LoadResult.medianOf(List.of()));
    }
}
