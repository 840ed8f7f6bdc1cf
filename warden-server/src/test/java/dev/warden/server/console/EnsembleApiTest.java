package dev.warden.server.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

/** How the ensemble view reads other members' four-letter-word answers. */
class EnsembleApiTest {
    @Test
    void readsTheFsyncTimesOfAMntrAnswer() {
        EnsembleApi.Fsyncs fsyncs = EnsembleApi.parseMntr(List.of("zk_version\t3.9.3-warden",
                "zk_fsync_threshold_exceed_count\t0", "zk_avg_fsynctime\t1.25", "zk_min_fsynctime\t0",
                "zk_max_fsynctime\t7", "zk_cnt_fsynctime\t12"));
        assertEquals(1.25, fsyncs.avgMs());
        assertEquals(7L, fsyncs.maxMs());
        assertNull(fsyncs.error());
    }

    @Test
    void passesOnWhyAMemberDidNotGiveMntr() {
        EnsembleApi.Fsyncs refused = EnsembleApi.parseMntr(
                List.of("mntr is not executed because it is not in the whitelist."));
        assertNull(refused.avgMs());
        assertEquals("mntr is not executed because it is not in the whitelist.", refused.error());
    }

    @Test
    void readsTheModeAndZxidOfASrvrAnswer() {
        EnsembleApi.Probe probe = EnsembleApi.parseSrvr(List.of("Zookeeper version: 3.9.3-warden",
                "Zxid: 0x200000005", "Mode: follower", "Node count: 5"));
        assertEquals("follower", probe.mode());
        assertEquals(0x200000005L, probe.zxid());
    }
}
