package dev.warden.server.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.warden.protocol.OpCode;
import org.junit.jupiter.api.Test;

/** One connection's figures for cons and crst. */
class ConnectionStatsTest {
    @Test
    void countsPacketsAndKeepsTheLatencyRange() {
        ConnectionStats stats = new ConnectionStats(1_000);
        stats.received();
        stats.received();
        stats.sent();
        stats.answered(OpCode.GET_DATA, 7, 0x10, 5, 100);
        stats.answered(OpCode.SET_DATA, 8, 0x11, 1, 101);
        stats.answered(OpCode.PING, -2, 0x11, 9, 102);
        assertEquals(2, stats.packetsReceived());
        assertEquals(1, stats.packetsSent());
        assertEquals(1, stats.minLatencyMs());
        assertEquals(9, stats.maxLatencyMs());
        assertEquals(5, stats.avgLatencyMs());
        assertEquals("PING", stats.lastOperation());
        assertEquals(8, stats.lastCxid(), "a ping's xid is not a cxid");
        assertEquals(0x11, stats.lastZxid());
        assertEquals(102, stats.lastResponseMs());
        assertEquals(9, stats.lastLatencyMs());
    }

    @Test
    void aResetStartsAgainButKeepsTheEstablishmentTime() {
        ConnectionStats stats = new ConnectionStats(1_000);
        stats.received();
        stats.answered(OpCode.EXISTS, 3, 0x10, 4, 100);
        stats.reset();
        assertEquals(0, stats.packetsReceived());
        assertEquals(0, stats.minLatencyMs(), "no latency yet reads as 0, as ZooKeeper prints it");
        assertEquals(0, stats.maxLatencyMs());
        assertEquals(0, stats.avgLatencyMs());
        assertEquals("NA", stats.lastOperation());
        assertEquals(-1, stats.lastCxid());
        assertEquals(1_000, stats.establishedAtMs());
        stats.answered(OpCode.EXISTS, 4, 0x10, 6, 100);
        assertEquals(6, stats.minLatencyMs());
        assertEquals(6, stats.maxLatencyMs());
    }

    @Test
    void concurrentWritersLoseNoCount() throws InterruptedException {
        ConnectionStats stats = new ConnectionStats(0);
        Thread[] threads = new Thread[4];
        for (int t = 0; t < threads.length; t++) {
            long latencyMs = t + 1;
            threads[t] = new Thread(() -> {
                for (int i = 0; i < 10_000; i++) {
                    stats.received();
                    stats.answered(OpCode.GET_DATA, i, 1, latencyMs, i);
                }
            });
            threads[t].start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        assertEquals(40_000, stats.packetsReceived());
        assertEquals(1, stats.minLatencyMs());
        assertEquals(4, stats.maxLatencyMs());
        assertEquals(2, stats.avgLatencyMs()); // (1+2+3+4)*10,000 / 40,000 = 2.5, truncated
    }
}
