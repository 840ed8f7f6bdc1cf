package dev.warden.protocol;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;

/**
 * The text ZooKeeper keeps in a quota's {@code zookeeper_limits} and {@code zookeeper_stats}
 * nodes (its StatsTrack): {@code count=N,bytes=M}, and when there are more keys (the hard limits
 * {@code countHardLimit}, {@code byteHardLimit}) a {@code =} and then {@code ;key=value} for each,
 * sorted. The server, which keeps the stats and enforces the limits, and the shell, which sets
 * and lists quotas, read and write it the same way.
 */
public final class QuotaText {
    private QuotaText() {
    }

    /**
     * The key/value pairs of {@code data}, separated by ',' or ';'; a value that is missing or not
     * a number reads as -1, which ZooKeeper also uses for "no limit". Null data gives no pairs.
     */
    public static Map<String, Long> parse(byte[] data) {
        Map<String, Long> values = new LinkedHashMap<>();
        if (data == null) {
            return values;
        }
        for (String pair : new String(data, StandardCharsets.UTF_8).split("[,;]+")) {
            String[] kv = pair.split("=");
            if (kv.length == 0 || kv[0].isBlank()) {
                continue;
            }
            try {
                values.put(kv[0].trim(), kv.length < 2 || kv[1].isBlank() ? -1 : Long.parseLong(kv[1].trim()));
            } catch (NumberFormatException notANumber) {
                values.put(kv[0].trim(), -1L);
            }
        }
        return values;
    }

    /** As ZooKeeper writes it: count and bytes first (-1 when absent), then the other keys sorted. */
    public static byte[] format(Map<String, Long> values) {
        StringBuilder out = new StringBuilder("count=").append(values.getOrDefault("count", -1L))
                .append(",bytes=").append(values.getOrDefault("bytes", -1L));
        TreeSet<String> others = new TreeSet<>(values.keySet());
        others.remove("count");
        others.remove("bytes");
        if (!others.isEmpty()) {
            out.append('=');
            others.forEach(key -> out.append(';').append(key).append('=').append(values.get(key)));
        }
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The value of {@code key}, or -1 when it is absent. */
    public static long get(Map<String, Long> values, String key) {
        return values.getOrDefault(key, -1L);
    }
}
