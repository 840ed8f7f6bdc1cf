package dev.warden.recipes.rendezvous;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.client.DataAndStat;
import dev.warden.client.WardenClient;
import dev.warden.client.WardenException;
import dev.warden.recipes.testing.RecipeTarget;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RendezvousTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final byte[] ADDRESS = "10.0.0.7:9000".getBytes(StandardCharsets.UTF_8);
    @TempDir
    Path dataDir;
    private RecipeTarget server;
    private String path;

    @BeforeEach
    void start() throws Exception {
        server = RecipeTarget.start(dataDir);
        path = RecipeTarget.freshPath("rendezvous") + "/master";
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void waitersReadTheDataOnceFilledInWhetherTheNodeWasPreparedOrNot() throws Exception {
        WardenClient worker = server.client();
        WardenClient master = server.client();
        Rendezvous workerSide = new Rendezvous(worker, path);
        CompletableFuture<DataAndStat> beforeNodeExists = workerSide.awaitFilled();
        Rendezvous masterSide = new Rendezvous(master, path);
        master.blocking(TIMEOUT).await(masterSide.prepare());
        CompletableFuture<DataAndStat> onEmptyNode = workerSide.awaitFilled();
        Thread.sleep(200);
        assertFalse(beforeNodeExists.isDone(), "an empty node is not filled in");
        assertFalse(onEmptyNode.isDone());

        master.blocking(TIMEOUT).await(masterSide.fill(ADDRESS));
        assertArrayEquals(ADDRESS, beforeNodeExists.get(10, TimeUnit.SECONDS).data());
        assertArrayEquals(ADDRESS, onEmptyNode.get(10, TimeUnit.SECONDS).data());
        assertArrayEquals(ADDRESS, workerSide.awaitFilled(TIMEOUT).data(), "already filled: at once");
    }

    @Test
    void blockingWaitTimesOutAndAPendingWaitFailsWhenItsClientCloses() {
        WardenClient worker = server.client();
        Rendezvous rendezvous = new Rendezvous(worker, path);
        assertThrows(WardenException.TimeoutException.class, () -> rendezvous.awaitFilled(Duration.ofMillis(300)));
        CompletableFuture<DataAndStat> pending = rendezvous.awaitFilled();
        worker.close();
        ExecutionException failure = assertThrows(ExecutionException.class, () -> pending.get(10, TimeUnit.SECONDS));
        assertTrue(failure.getCause() instanceof WardenException, failure.getCause().toString());
    }
}
