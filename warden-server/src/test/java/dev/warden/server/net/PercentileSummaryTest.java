package dev.warden.server.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PercentileSummaryTest {
    @Test
    void smallValuesGiveExactPercentiles() {
        PercentileSummary summary = new PercentileSummary();
        for (int ms = 1; ms <= 100; ms++) {
            summary.record(ms);
        }
        assertEquals(50, summary.percentile(0.5));
        assertEquals(95, summary.percentile(0.95));
        assertEquals(99, summary.percentile(0.99));
        assertEquals(100, summary.percentile(0.999));
        assertEquals(1, summary.minMs());
        assertEquals(100, summary.maxMs());
        assertEquals(5050, summary.sumMs());
        assertEquals(50.5, summary.avgMs());
    }

    @Test
    void largeValuesAreWithinASixteenthOfTheTruth() {
        for (long value : new long[] {1024, 1500, 4097, 65_000, 3_600_000, Long.MAX_VALUE / 2}) {
            PercentileSummary summary = new PercentileSummary();
            summary.record(value);
            summary.record(value);
            long p50 = summary.percentile(0.5);
            assertTrue(p50 <= value && p50 >= value - value / 16, value + " -> " + p50);
        }
    }

    @Test
    void anEmptySummaryReadsAsZeroAndResetEmptiesIt() {
        PercentileSummary summary = new PercentileSummary();
        assertEquals(0, summary.percentile(0.99));
        assertEquals(0, summary.minMs());
        summary.record(7);
        summary.reset();
        assertEquals(0, summary.count());
        assertEquals(0, summary.percentile(0.5));
    }
}
