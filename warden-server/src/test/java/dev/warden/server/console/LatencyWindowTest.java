package dev.warden.server.console;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayDeque;
import java.util.Deque;
import org.junit.jupiter.api.Test;

class LatencyWindowTest {
    private static long[] buckets(long... counts) {
        return counts;
    }

    @Test
    void eachTickGivesThePercentilesOfWhatCameSinceTheLast() {
        // bucket i holds latencies of i ms (below 1024 ms every bucket is exact)
        Deque<long[]> reads = new ArrayDeque<>();
        reads.add(buckets(0, 0, 0, 0, 0));
        reads.add(buckets(90, 0, 0, 0, 10)); // 90 at 0 ms, 10 at 4 ms
        reads.add(buckets(90, 0, 100, 0, 10)); // then 100 at 2 ms
        LatencyWindow window = new LatencyWindow(reads::poll, () -> new long[5]);
        window.tick();
        assertEquals(LatencyWindow.Percentiles.NONE, window.reads());
        window.tick();
        assertEquals(new LatencyWindow.Percentiles(0, 4, 4, 100), window.reads());
        window.tick();
        assertEquals(new LatencyWindow.Percentiles(2, 2, 2, 100), window.reads());
        assertEquals(LatencyWindow.Percentiles.NONE, window.writes());
    }

    @Test
    void aResetBetweenTicksCountsFromZero() {
        Deque<long[]> writes = new ArrayDeque<>();
        writes.add(buckets(0, 50, 0));
        writes.add(buckets(0, 3, 1)); // srst, then 3 at 1 ms and 1 at 2 ms
        LatencyWindow window = new LatencyWindow(() -> new long[3], writes::poll);
        window.tick();
        window.tick();
        assertEquals(new LatencyWindow.Percentiles(1, 2, 2, 4), window.writes());
    }
}
