package dev.warden.bench.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The disk's sync latency: really timed in the given directory, which it leaves as it found it. */
class DiskLatencyTest {
    @TempDir
    Path dir;

    @Test
    void timesTheGivenNumberOfSyncedWritesAndLeavesNoFileBehind() throws IOException {
        DiskLatency latency = DiskLatency.measure(dir, 50);
        assertEquals(50, latency.samples());
        assertTrue(latency.p50Us() > 0, latency::toString); // a sync takes at least a microsecond
        assertTrue(latency.p99Us() >= latency.p50Us(), latency::toString);
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(0, left.count());
        }
    }

    @Test
    void aDirectoryThatDoesNotExistIsAnIoError() {
        assertThrows(IOException.class, () -> DiskLatency.measure(dir.resolve("missing"), 10));
    }

    @Test
    void figuresThatAreNotALatencyAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new DiskLatency(100, 50, 10));
        assertThrows(IllegalArgumentException.class, () -> new DiskLatency(100, 200, 0));
        assertThrows(IllegalArgumentException.class, () -> DiskLatency.measure(dir, 0));
    }
}
