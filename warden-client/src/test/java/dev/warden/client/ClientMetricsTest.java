package dev.warden.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ClientMetricsTest {

    @Test
    void everyValueFallsInABucketWhoseBoundIsWithinAnEighthAboveIt() {
        for (long micros : new long[] {0, 1, 7, 8, 9, 15, 16, 17, 100, 999, 1_000, 123_456, 10_000_000, Long.MAX_VALUE / 4}) {
            int bucket = ClientMetrics.bucketOf(micros);
            long bound = ClientMetrics.upperBoundMicros(bucket);
            assertTrue(bound >= micros, micros + " -> bucket " + bucket + " bound " + bound);
            assertTrue(bound <= micros + micros / 8 + 1, micros + " -> bound " + bound);
            if (bucket > 0) {
                assertTrue(ClientMetrics.upperBoundMicros(bucket - 1) < micros, "buckets do not overlap at " + micros);
            }
        }
    }

    @Test
    void percentilesAndCounts() {
        ClientMetrics metrics = new ClientMetrics(() -> 3);
        for (int i = 1; i <= 100; i++) {
            metrics.requestCompleted(i * 1_000_000L);   // 1..100 ms
        }
        metrics.stateChanged(ConnectionState.CONNECTED);
        metrics.stateChanged(ConnectionState.SUSPENDED);
        metrics.stateChanged(ConnectionState.RECONNECTED);
        metrics.stateChanged(ConnectionState.SUSPENDED);
        ClientMetrics.LatencySummary latency = metrics.latency();
        assertEquals(100, latency.requests());
        assertEquals(50.5, latency.meanMs(), 0.01);
        assertTrue(latency.p50Ms() >= 50 && latency.p50Ms() <= 50 * 1.125, "p50 " + latency.p50Ms());
        assertTrue(latency.p99Ms() >= 99 && latency.p99Ms() <= 99 * 1.125, "p99 " + latency.p99Ms());
        assertEquals(100.0, latency.maxMs(), 0.001);
        assertEquals(2, metrics.stateChanges(ConnectionState.SUSPENDED));
        assertEquals(ConnectionState.SUSPENDED, metrics.connectionState());
        assertEquals(3, metrics.outstandingRequests());
        metrics.resetLatency();
        assertEquals(0, metrics.latency().requests());
        assertEquals(2, metrics.stateChanges(ConnectionState.SUSPENDED));
    }
}
