package dev.warden.recipes.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.client.WardenClient;
import dev.warden.recipes.testing.RecipeTarget.ProxiedClient;
import dev.warden.recipes.testing.RecipeTarget;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Queue consumers whose connection breaks while they hand an item back. */
class QueueFailureTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    @TempDir
    Path dataDir;
    private RecipeTarget server;
    private String path;
    private WardenClient observer;

    @BeforeEach
    void start() throws Exception {
        server = RecipeTarget.start(dataDir);
        path = RecipeTarget.freshPath("queue-failure") + "/jobs";
        observer = server.client();
        observer.blocking(TIMEOUT).await(new DistributedQueue(observer, path)
                .offer("job".getBytes(StandardCharsets.UTF_8)));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private List<String> claims() {
        return observer.blocking(TIMEOUT).getChildren(path + "/claims");
    }

    /** The delete never reached the server: sent again once the client is back, the claim is ours. */
    @Test
    void releaseLostOnTheWayOutIsSentAgain() throws Exception {
        ProxiedClient flaky = server.proxiedClient(Duration.ofSeconds(5));
        QueueItem item = new DistributedQueue(flaky.client(), path).poll(TIMEOUT).orElseThrow();
        assertEquals(1, claims().size());

        flaky.proxy().pause();
        CompletableFuture<Void> released = item.release();
        Thread.sleep(200);
        flaky.proxy().drop();
        flaky.proxy().resume();

        released.get(15, TimeUnit.SECONDS);
        assertEquals(List.of(), claims(), "the claim is gone");
        assertTrue(takeWithAnotherConsumer().isPresent(), "another consumer can take the item");
    }

    /** The delete was applied and only its reply was lost: the release reports success. */
    @Test
    void releaseWhoseReplyIsLostSucceeds() throws Exception {
        ProxiedClient flaky = server.proxiedClient(Duration.ofSeconds(5));
        CompletableFuture<Void> released = releaseAppliedWithItsReplyHeldBack(flaky);
        flaky.proxy().drop();
        flaky.proxy().resume();

        released.get(15, TimeUnit.SECONDS);
        assertTrue(takeWithAnotherConsumer().isPresent(), "another consumer can take the item");
    }

    /** A claim another consumer made after ours went is never deleted by our retry. */
    @Test
    void aRetriedReleaseLeavesAnotherConsumersClaimAlone() throws Exception {
        ProxiedClient flaky = server.proxiedClient(Duration.ofSeconds(5));
        CompletableFuture<Void> released = releaseAppliedWithItsReplyHeldBack(flaky);
        WardenClient other = server.client();
        QueueItem taken = new DistributedQueue(other, path).poll(TIMEOUT).orElseThrow();
        flaky.proxy().drop();
        flaky.proxy().resume();

        released.get(15, TimeUnit.SECONDS);
        assertEquals(List.of(taken.name()), claims(), "the other consumer's claim stays");
        other.blocking(TIMEOUT).await(taken.complete());
        assertEquals(0, observer.blocking(TIMEOUT).await(new DistributedQueue(observer, path).size()));
    }

    /** Takes the item through {@code flaky}, releases it and holds the reply back until the delete is applied. */
    private CompletableFuture<Void> releaseAppliedWithItsReplyHeldBack(ProxiedClient flaky) throws Exception {
        QueueItem item = new DistributedQueue(flaky.client(), path).poll(TIMEOUT).orElseThrow();
        flaky.proxy().pauseReplies();
        CompletableFuture<Void> released = item.release();
        long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!claims().isEmpty() && System.nanoTime() < deadlineNs) {
            Thread.sleep(10);
        }
        assertEquals(List.of(), claims(), "the delete was applied");
        return released;
    }

    private Optional<QueueItem> takeWithAnotherConsumer() {
        return new DistributedQueue(server.client(), path).poll(TIMEOUT);
    }
}
