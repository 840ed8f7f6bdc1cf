package dev.warden.recipes.barrier;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.client.WardenClient;
import dev.warden.recipes.testing.RecipeTarget;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BarrierTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    @TempDir
    Path dataDir;
    private RecipeTarget server;
    private String path;

    @BeforeEach
    void start() throws Exception {
        server = RecipeTarget.start(dataDir);
        path = RecipeTarget.freshPath("barrier") + "/gate";
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void waitersProceedOnlyOnceTheBarrierIsLifted() throws Exception {
        WardenClient owner = server.client();
        Barrier barrier = new Barrier(owner, path);
        owner.blocking(TIMEOUT).await(barrier.raise());
        List<CompletableFuture<Void>> waiters = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            waiters.add(new Barrier(server.client(), path).awaitLifted());
        }
        assertFalse(new Barrier(server.client(), path).awaitLifted(Duration.ofMillis(300)), "still raised");
        assertTrue(waiters.stream().noneMatch(CompletableFuture::isDone));

        owner.blocking(TIMEOUT).await(barrier.lift());
        CompletableFuture.allOf(waiters.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
        assertTrue(new Barrier(server.client(), path).awaitLifted(TIMEOUT), "lifted: at once");
    }

    @Test
    void aSessionBarrierLiftsItselfWhenItsRaiserCrashes() throws Exception {
        RecipeTarget.ProxiedClient raiser = server.proxiedClient(RecipeTarget.SHORT_SESSION_TIMEOUT);
        raiser.client().blocking(TIMEOUT).await(new Barrier(raiser.client(), path).raiseForSession());
        CompletableFuture<Void> waiter = new Barrier(server.client(), path).awaitLifted();
        assertFalse(waiter.isDone());

        raiser.proxy().cut(); // no close: the server must expire the session
        waiter.get(15, TimeUnit.SECONDS);
    }

    @Test
    void aPersistentBarrierOutlivesItsRaisersSession() {
        WardenClient raiser = server.client();
        raiser.blocking(TIMEOUT).await(new Barrier(raiser, path).raise());
        raiser.close();
        assertFalse(new Barrier(server.client(), path).awaitLifted(Duration.ofMillis(300)),
                "a dead raiser leaves a persistent barrier up; waiters rely on their timeout");
    }
}
