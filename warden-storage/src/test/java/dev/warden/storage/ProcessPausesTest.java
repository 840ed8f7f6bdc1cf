package dev.warden.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ProcessPausesTest {
    @Test
    void onlyThePartOfAnIntervalSpentPausedCounts() {
        ProcessPauses pauses = ProcessPauses.get();
        long base = System.nanoTime() + 3_600_000_000_000L; // an hour ahead: no real pause is there
        pauses.record(new ProcessPauses.Pause(base + 1_000_000_000L, base + 31_000_000_000L));
        assertEquals(30_000, pauses.pausedMillisDuring(base, base + 40_000_000_000L));
        assertEquals(10_000, pauses.pausedMillisDuring(base + 21_000_000_000L, base + 40_000_000_000L));
        assertEquals(0, pauses.pausedMillisDuring(base + 32_000_000_000L, base + 40_000_000_000L));
    }
}
