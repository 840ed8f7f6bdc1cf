package dev.warden.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ServerLimitHintsTest {

    @Test
    void theDefaultWorkloadsWithinServerDefaultsGetNoHint() {
        for (Workload workload : List.of(Workload.SET_DATA, Workload.LOCK, Workload.SESSION_STORM)) {
            assertEquals(List.of(), ServerLimitHints.forSpec(LoadSpec.defaults("127.0.0.1:2181", workload)), workload::name);
        }
    }

    @Test
    void aFanOutWithMoreWatchersThanTheConnectionLimitNamesMaxClientCnxns() {
        LoadSpec fanout = LoadSpec.defaults("127.0.0.1:2181", Workload.FANOUT); // 100 watchers and a writer
        List<String> hints = ServerLimitHints.forSpec(fanout);
        assertEquals(1, hints.size(), hints::toString);
        assertTrue(hints.get(0).contains("101 sessions") && hints.get(0).contains("maxClientCnxns"), hints.get(0));
        assertEquals(List.of(), ServerLimitHints.forSpec(fanout.withParticipants(59, 8, 90)));
    }

    @Test
    void aValueBeyondTheDefaultFrameLimitNamesJuteMaxBufferAndASizeThatFits() {
        List<String> hints = ServerLimitHints.forSpec(LoadSpec.defaults("127.0.0.1:2181", Workload.LARGE));
        assertEquals(1, hints.size(), hints::toString);
        assertTrue(hints.get(0).contains("jute.maxbuffer=2097152"), hints.get(0));
        assertEquals(List.of(), ServerLimitHints.forSpec(
                LoadSpec.defaults("127.0.0.1:2181", Workload.LARGE).withLoad(1, 1, 1_000_000)));
    }
}
