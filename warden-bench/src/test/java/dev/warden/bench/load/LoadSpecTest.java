package dev.warden.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class LoadSpecTest {

    @Test
    void defaultsMatchTheComparisonSettings() {
        LoadSpec spec = LoadSpec.defaults("127.0.0.1:2181", Workload.SET_DATA);
        assertEquals(16, spec.sessions());
        assertEquals(32, spec.inFlightPerSession());
        assertEquals(1024, spec.valueSizeBytes());
        assertEquals(ClientKind.APACHE, spec.client());
        LoadSpec large = LoadSpec.defaults("127.0.0.1:2181", Workload.LARGE);
        assertEquals(1 << 20, large.valueSizeBytes());
        assertEquals(16, large.keyCount());
    }

    @Test
    void badValuesAreRejectedWithTheirName() {
        LoadSpec ok = LoadSpec.defaults("127.0.0.1:2181", Workload.MIXED);
        IllegalArgumentException sessions = assertThrows(IllegalArgumentException.class, () -> ok.withLoad(0, 1, 10));
        assertTrue(sessions.getMessage().contains("sessions=0"), sessions.getMessage());
        IllegalArgumentException value = assertThrows(IllegalArgumentException.class,
                () -> ok.withLoad(1, 1, LoadSpec.MAX_VALUE_BYTES + 1));
        assertTrue(value.getMessage().contains("value-size"), value.getMessage());
        IllegalArgumentException reads = assertThrows(IllegalArgumentException.class,
                () -> ok.withParticipants(1, 1, 101));
        assertTrue(reads.getMessage().contains("read-percent=101"), reads.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ok.withConnectString(" "));
    }

    @Test
    void compareAndSetNeedsAKeyPerRequestInFlight() {
        LoadSpec cas = LoadSpec.defaults("127.0.0.1:2181", Workload.CAS_SET_DATA); // 16 × 32 over 1000 keys
        assertEquals(Workload.CAS_SET_DATA, Workload.parse("casSetData"));
        IllegalArgumentException tooFew = assertThrows(IllegalArgumentException.class, () -> cas.withLoad(64, 32, 1024));
        assertTrue(tooFew.getMessage().contains("key-count=1000 must be at least sessions × in-flight = 2048"),
                tooFew.getMessage());
    }

    @Test
    void workloadsParseByTheirCommandLineName() {
        assertEquals(Workload.CREATE_DELETE, Workload.parse("createdelete"));
        assertEquals(Workload.SESSION_STORM, Workload.parse("SESSION_STORM"));
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> Workload.parse("nope"));
        assertTrue(unknown.getMessage().contains("setData, getData"), unknown.getMessage());
    }

    @Test
    void summaryLineIsOneJsonObjectWithUnitsInTheNames() {
        Histogram histogram = new Histogram(LoadRecorder.HIGHEST_LATENCY_US, 3);
        for (int us = 1; us <= 1000; us++) {
            histogram.recordValue(us);
        }
        LoadResult result = LoadResult.of("setData", histogram, 2000, Map.of("NO_NODE", 3L), -1);
        assertEquals(500.0, result.opsPerSecond());
        String line = result.summaryLine();
        assertTrue(line.startsWith("SUMMARY {\"workload\":\"setData\",\"operations\":1000,\"measuredMs\":2000,"
                + "\"opsPerSecond\":500.0,\"p50Us\":500,\"p90Us\":900,\"p99Us\":990,\"p999Us\":999,\"maxUs\":1000"), line);
        assertTrue(line.endsWith("\"errors\":{\"NO_NODE\":3}}"), line);
        assertEquals(3, result.errorCount());
    }

    @Test
    void aRunIsPlaintextUnlessGivenTlsAndKeepsItsTlsThroughTheOtherSettings() {
        LoadSpec plain = LoadSpec.defaults("127.0.0.1:2181", Workload.SET_DATA);
        assertEquals(LoadClientTls.NONE, plain.tls());
        LoadClientTls tls = new LoadClientTls(Map.of("zookeeper.client.secure", "true",
                "zookeeper.ssl.keyStore.location", "/k.p12"));
        LoadSpec secure = plain.withTls(tls).withLoad(2, 2, 10).withDurations(0, 1).withConnectString("127.0.0.1:2281");
        assertEquals(tls, secure.tls());
        assertEquals("TLS", tls.toString());
    }

    @Test
    void tlsPropertiesWithoutTheSecureSwitchAndTheNioSocketOverTlsAreRefused() {
        IllegalArgumentException noSwitch = assertThrows(IllegalArgumentException.class,
                () -> new LoadClientTls(Map.of("zookeeper.ssl.keyStore.location", "/k.p12")));
        assertTrue(noSwitch.getMessage().contains("zookeeper.client.secure=true"), noSwitch.getMessage());
        LoadClientTls tls = new LoadClientTls(Map.of("zookeeper.client.secure", "true"));
        IllegalArgumentException nio = assertThrows(IllegalArgumentException.class,
                () -> ClientKind.APACHE_NIO.connect("127.0.0.1:1", 1000, 1 << 20, tls));
        assertTrue(nio.getMessage().contains("--client APACHE"), nio.getMessage());
    }
}
