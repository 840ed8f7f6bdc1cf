package dev.warden.recipes.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.warden.client.WardenClient;
import dev.warden.recipes.testing.Eventually;
import dev.warden.recipes.testing.RecipeTarget;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigChangeLogTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    @TempDir
    Path dataDir;
    private RecipeTarget server;
    private String path;

    @BeforeEach
    void start() throws Exception {
        server = RecipeTarget.start(dataDir);
        path = RecipeTarget.freshPath("changes");
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void followerSeesEveryChangeOnceInSequenceOrderWhileTwoWritersRace() {
        WardenClient follower = server.client();
        List<ConfigChangeLog.Change<Integer>> seen = Collections.synchronizedList(new ArrayList<>());
        follower.blocking(TIMEOUT).await(ConfigChangeLog.follow(follower, path, ConfigCodec.integer(), -1, seen::add));
        WardenClient writerA = server.client();
        WardenClient writerB = server.client();
        List<CompletableFuture<Long>> appends = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            appends.add(ConfigChangeLog.append(writerA, path, ConfigCodec.integer(), i));
            appends.add(ConfigChangeLog.append(writerB, path, ConfigCodec.integer(), 1000 + i));
        }
        CompletableFuture.allOf(appends.toArray(CompletableFuture[]::new)).join();
        Eventually.holds(TIMEOUT, () -> seen.size() == 200, () -> "seen " + seen.size());

        List<Long> sequences = seen.stream().map(ConfigChangeLog.Change::sequence).toList();
        assertEquals(sequences.stream().sorted().distinct().toList(), sequences, "each once, in order");
        List<Integer> fromA = seen.stream().map(ConfigChangeLog.Change::value).filter(v -> v < 1000).toList();
        assertEquals(IntStream.range(0, 100).boxed().toList(), fromA, "one writer's changes keep its order");
    }

    @Test
    void aLateFollowerCatchesUpAndResumesAfterTrimming() {
        WardenClient writer = server.client();
        for (int i = 0; i < 10; i++) {
            writer.blocking(TIMEOUT).await(ConfigChangeLog.append(writer, path, ConfigCodec.utf8(), "v" + i));
        }
        WardenClient follower = server.client();
        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        ConfigChangeLog<String> log = follower.blocking(TIMEOUT).await(
                ConfigChangeLog.follow(follower, path, ConfigCodec.utf8(), -1, change -> seen.add(change.value())));
        assertEquals(IntStream.range(0, 10).mapToObj(i -> "v" + i).toList(), seen, "caught up before follow completed");
        long resumeAfter = log.lastSequence();
        log.close();

        assertEquals(5, writer.blocking(TIMEOUT).await(ConfigChangeLog.trimBefore(writer, path, 5)));
        writer.blocking(TIMEOUT).await(ConfigChangeLog.append(writer, path, ConfigCodec.utf8(), "v10"));
        List<String> resumed = Collections.synchronizedList(new ArrayList<>());
        follower.blocking(TIMEOUT).await(ConfigChangeLog.follow(follower, path, ConfigCodec.utf8(), resumeAfter,
                change -> resumed.add(change.value())));
        assertEquals(List.of("v10"), resumed);
    }
}
