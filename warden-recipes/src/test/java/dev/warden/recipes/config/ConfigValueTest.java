package dev.warden.recipes.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.client.WardenClient;
import dev.warden.recipes.testing.Eventually;
import dev.warden.recipes.testing.RecipeTarget;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigValueTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    @TempDir
    Path dataDir;
    private RecipeTarget server;
    private String path;

    @BeforeEach
    void start() throws Exception {
        server = RecipeTarget.start(dataDir);
        path = RecipeTarget.freshPath("config") + "/limit";
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void listenerSeesChangesWithStrictlyIncreasingZxidsAndEndsOnTheLastValue() {
        WardenClient reader = server.client();
        WardenClient writer = server.client();
        List<ConfigSnapshot<Integer>> seen = Collections.synchronizedList(new ArrayList<>());
        ConfigValue<Integer> value = ConfigValue.follow(reader, path, ConfigCodec.integer(), seen::add, TIMEOUT);
        ConfigValue<Integer> writerView = ConfigValue.follow(writer, path, ConfigCodec.integer(), s -> { }, TIMEOUT);
        for (int i = 1; i <= 200; i++) {
            writerView.set(i); // pipelined: the reader sees a burst and may skip some
        }
        writer.blocking(TIMEOUT).sync(path);
        Eventually.holds(TIMEOUT, () -> value.current().value().equals(Optional.of(200)), () -> "last " + value.current());

        List<ConfigSnapshot<Integer>> copy = List.copyOf(seen);
        assertFalse(copy.get(0).exists(), "initial state: absent");
        long lastZxid = -1;
        int lastVersion = -1;
        int lastValue = 0;
        for (ConfigSnapshot<Integer> snapshot : copy.subList(1, copy.size())) {
            assertTrue(snapshot.modifiedZxid() > lastZxid, "zxids strictly increase: " + copy);
            assertTrue(snapshot.version() > lastVersion, "versions increase");
            assertTrue(snapshot.value().orElseThrow() > lastValue, "values arrive in write order");
            lastZxid = snapshot.modifiedZxid();
            lastVersion = snapshot.version();
            lastValue = snapshot.value().orElseThrow();
        }
        // value i was written as version i - 1 (the create is version 0)
        assertEquals(199, lastVersion);
    }

    @Test
    void deletionIsReportedOnceAndARecreatedValueFollows() {
        WardenClient reader = server.client();
        WardenClient writer = server.client();
        List<ConfigSnapshot<String>> seen = Collections.synchronizedList(new ArrayList<>());
        ConfigValue.follow(reader, path, ConfigCodec.utf8(), seen::add, TIMEOUT);
        ConfigValue<String> writerView = ConfigValue.follow(writer, path, ConfigCodec.utf8(), s -> { }, TIMEOUT);
        writer.blocking(TIMEOUT).await(writerView.set("a"));
        Eventually.holds(TIMEOUT, () -> seen.size() == 2, seen::toString);
        writer.blocking(TIMEOUT).delete(path);
        Eventually.holds(TIMEOUT, () -> seen.size() == 3, seen::toString);
        writer.blocking(TIMEOUT).await(writerView.set("b"));
        Eventually.holds(TIMEOUT, () -> seen.size() == 4, seen::toString);

        assertEquals(List.of(Optional.empty(), Optional.of("a"), Optional.empty(), Optional.of("b")),
                seen.stream().map(ConfigSnapshot::value).toList());
        assertTrue(seen.get(3).modifiedZxid() > seen.get(1).modifiedZxid());
        assertEquals(0, seen.get(3).version(), "a recreated node starts again at version 0");
    }

    @Test
    void undecodableDataIsReportedAndTheLastGoodValueStays() {
        WardenClient reader = server.client();
        WardenClient writer = server.client();
        List<Integer> badVersions = Collections.synchronizedList(new ArrayList<>());
        ConfigValue<Integer> value = ConfigValue.follow(reader, path, ConfigCodec.integer(), new ConfigListener<>() {
            @Override
            public void changed(ConfigSnapshot<Integer> snapshot) {
            }

            @Override
            public void decodeFailed(int version, RuntimeException failure) {
                badVersions.add(version);
            }
        }, TIMEOUT);
        writer.blocking(TIMEOUT).await(value.set(7)); // writes through the reader's session, fine too
        Eventually.holds(TIMEOUT, () -> value.current().value().equals(Optional.of(7)), value.current()::toString);
        writer.blocking(TIMEOUT).setData(path, "seven".getBytes(StandardCharsets.UTF_8));
        Eventually.holds(TIMEOUT, () -> badVersions.equals(List.of(1)), badVersions::toString);
        assertEquals(Optional.of(7), value.current().value());
    }

    @Test
    void compareAndSetRefusesAStaleVersion() {
        WardenClient client = server.client();
        ConfigValue<String> value = ConfigValue.follow(client, path, ConfigCodec.utf8(), s -> { }, TIMEOUT);
        client.blocking(TIMEOUT).await(value.set("first"));
        client.blocking(TIMEOUT).await(value.compareAndSet("second", 0));
        var failure = org.junit.jupiter.api.Assertions.assertThrows(dev.warden.client.WardenException.BadVersionException.class,
                () -> client.blocking(TIMEOUT).await(value.compareAndSet("third", 0)));
        assertEquals(path, failure.path());
    }
}
