package dev.warden.consensus;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** Configuration entries for scenario tests: {@code CONFIG v=1,2,3 o=4} (majority quorums). */
final class TestConfigs {
    private static final String PREFIX = "CONFIG ";

    static final ConfigEntryCodec CODEC = entry -> {
        String text = new String(entry.payload(), StandardCharsets.UTF_8);
        if (!text.startsWith(PREFIX)) {
            return null;
        }
        Set<Long> voters = new TreeSet<>();
        Set<Long> observers = new TreeSet<>();
        for (String part : text.substring(PREFIX.length()).split(" ")) {
            Set<Long> into = part.startsWith("v=") ? voters : observers;
            String ids = part.substring(2);
            if (!ids.isEmpty()) {
                Arrays.stream(ids.split(",")).map(Long::parseLong).forEach(into::add);
            }
        }
        return new Configuration(entry.zxid(), new MajorityQuorum(voters, observers), entry.payload());
    };

    private TestConfigs() {
    }

    static byte[] payload(Set<Long> voters, Set<Long> observers) {
        return (PREFIX + "v=" + join(voters) + " o=" + join(observers)).getBytes(StandardCharsets.UTF_8);
    }

    static Configuration initial(Set<Long> voters, Set<Long> observers) {
        return new Configuration(0, new MajorityQuorum(voters, observers), payload(voters, observers));
    }

    private static String join(Set<Long> ids) {
        return new TreeSet<>(ids).stream().map(String::valueOf).collect(Collectors.joining(","));
    }
}
