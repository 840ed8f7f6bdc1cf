package dev.warden.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.zookeeper.StatsTrack;
import org.junit.jupiter.api.Test;

/** The quota text reads and writes as ZooKeeper's own StatsTrack does. */
class QuotaTextTest {
    @Test
    void writesWhatZooKeeperWrites() {
        Map<String, Long> limits = new LinkedHashMap<>();
        limits.put("countHardLimit", 10L);
        limits.put("bytes", 2048L);
        limits.put("count", -1L);
        limits.put("byteHardLimit", -1L);
        StatsTrack apache = new StatsTrack();
        apache.setCount(-1);
        apache.setBytes(2048);
        apache.setCountHardLimit(10);
        apache.setByteHardLimit(-1);
        assertEquals(apache.toString(), text(QuotaText.format(limits)));

        StatsTrack plain = new StatsTrack();
        plain.setCount(3);
        plain.setBytes(12);
        assertEquals(plain.toString(), text(QuotaText.format(Map.of("count", 3L, "bytes", 12L))));
    }

    @Test
    void readsWhatZooKeeperWritesAndOlderForms() {
        StatsTrack apache = new StatsTrack();
        apache.setCount(5);
        apache.setBytes(-1);
        apache.setCountHardLimit(7);
        Map<String, Long> read = QuotaText.parse(apache.toString().getBytes(StandardCharsets.UTF_8));
        assertEquals(5L, QuotaText.get(read, "count"));
        assertEquals(-1L, QuotaText.get(read, "bytes"));
        assertEquals(7L, QuotaText.get(read, "countHardLimit"));
        assertEquals(-1L, QuotaText.get(read, "byteHardLimit"), "absent keys read as no limit");

        Map<String, Long> odd = QuotaText.parse("count=x,bytes=,=3;;".getBytes(StandardCharsets.UTF_8));
        assertEquals(Map.of("count", -1L, "bytes", -1L), odd, "a value that is not a number reads as -1");
        assertEquals(Map.of(), QuotaText.parse(null));
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
