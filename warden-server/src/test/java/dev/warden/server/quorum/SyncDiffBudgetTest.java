package dev.warden.server.quorum;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.warden.server.peer.PeerOptions;
import org.junit.jupiter.api.Test;

/** The largest diff a leader sends a follower is a quarter of the peer transport's queue budget. */
class SyncDiffBudgetTest {
    @Test
    void aSyncDiffIsAQuarterOfThePeerQueueBudget() {
        long mib = 1L << 20;
        assertEquals(8 * mib, ZabConsensus.maxSyncDiffBytes(PeerOptions.forHeap(256 * mib)));
        assertEquals(64 * mib, ZabConsensus.maxSyncDiffBytes(PeerOptions.forHeap(4096 * mib)));
    }
}
