package dev.warden.recipes.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.client.WardenClient;
import dev.warden.recipes.testing.RecipeTarget;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QueueTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    @TempDir
    Path dataDir;
    private RecipeTarget server;
    private String path;

    @BeforeEach
    void start() throws Exception {
        server = RecipeTarget.start(dataDir);
        path = RecipeTarget.freshPath("queue") + "/jobs";
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(QueueItem item) {
        return new String(item.data(), StandardCharsets.UTF_8);
    }

    @Test
    void competingConsumersGetEveryItemExactlyOnceEachInOfferOrder() throws Exception {
        WardenClient producer = server.client();
        DistributedQueue queue = new DistributedQueue(producer, path);
        for (int i = 0; i < 60; i++) {
            queue.offer(bytes("job-" + i));
        }
        producer.blocking(TIMEOUT).await(queue.offer(bytes("job-60")));
        List<String> done = Collections.synchronizedList(new ArrayList<>());
        List<CompletableFuture<List<Long>>> consumers = new ArrayList<>();
        for (int c = 0; c < 3; c++) {
            DistributedQueue consumer = new DistributedQueue(server.client(), path);
            consumers.add(CompletableFuture.supplyAsync(() -> {
                List<Long> sequences = new ArrayList<>();
                Optional<QueueItem> item;
                while ((item = consumer.poll(Duration.ofMillis(500))).isPresent()) {
                    item.get().complete().join();
                    done.add(text(item.get()));
                    sequences.add(item.get().sequence());
                }
                return sequences;
            }));
        }
        for (CompletableFuture<List<Long>> consumer : consumers) {
            List<Long> sequences = consumer.get(60, TimeUnit.SECONDS);
            assertEquals(sequences.stream().sorted().toList(), sequences, "one consumer sees offer order");
        }
        assertEquals(IntStream.rangeClosed(0, 60).mapToObj(i -> "job-" + i).sorted().toList(),
                done.stream().sorted().toList(), "every item once");
        assertEquals(0, producer.blocking(TIMEOUT).await(queue.size()));
    }

    @Test
    void anItemWhoseConsumerCrashesMidWayIsDeliveredAgain() throws Exception {
        WardenClient producer = server.client();
        DistributedQueue queue = new DistributedQueue(producer, path);
        producer.blocking(TIMEOUT).await(queue.offer(bytes("first")));
        producer.blocking(TIMEOUT).await(queue.offer(bytes("second")));

        RecipeTarget.ProxiedClient doomed = server.proxiedClient(RecipeTarget.SHORT_SESSION_TIMEOUT);
        QueueItem claimed = new DistributedQueue(doomed.client(), path).poll(TIMEOUT).orElseThrow();
        assertEquals("first", text(claimed));

        DistributedQueue survivor = new DistributedQueue(server.client(), path);
        QueueItem next = survivor.poll(TIMEOUT).orElseThrow();
        assertEquals("second", text(next), "a claimed item is skipped, not waited for");
        next.complete().join();
        CompletableFuture<QueueItem> waiting = survivor.take();
        Thread.sleep(200);
        assertFalse(waiting.isDone(), "the only item left is claimed");

        doomed.proxy().cut(); // dies mid-item: no complete, no release, no close
        QueueItem redelivered = waiting.get(20, TimeUnit.SECONDS);
        assertEquals("first", text(redelivered));
        redelivered.complete().join();
        assertEquals(0, producer.blocking(TIMEOUT).await(queue.size()));
    }

    @Test
    void aReleasedItemGoesBackAndATimedOutPollClaimsNothing() {
        WardenClient client = server.client();
        DistributedQueue queue = new DistributedQueue(client, path);
        assertTrue(queue.poll(Duration.ofMillis(300)).isEmpty());
        client.blocking(TIMEOUT).await(queue.offer(bytes("only")));
        QueueItem item = queue.poll(TIMEOUT).orElseThrow();
        client.blocking(TIMEOUT).await(item.release());
        QueueItem again = new DistributedQueue(server.client(), path).poll(TIMEOUT).orElseThrow();
        assertEquals(item.sequence(), again.sequence());
    }

    @Test
    void priorityQueueServesLowerNumbersFirstAndNoticesAMoreUrgentLateItem() {
        WardenClient producer = server.client();
        DistributedPriorityQueue queue = new DistributedPriorityQueue(producer, path);
        producer.blocking(TIMEOUT).await(queue.offer(bytes("p5-a"), 5));
        producer.blocking(TIMEOUT).await(queue.offer(bytes("p1-a"), 1));
        producer.blocking(TIMEOUT).await(queue.offer(bytes("p9"), 9));
        producer.blocking(TIMEOUT).await(queue.offer(bytes("p1-b"), 1));
        producer.blocking(TIMEOUT).await(queue.offer(bytes("p5-b"), 5));

        DistributedPriorityQueue consumer = new DistributedPriorityQueue(server.client(), path);
        List<String> order = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            QueueItem item = consumer.poll(TIMEOUT).orElseThrow();
            item.complete().join();
            order.add(text(item));
        }
        producer.blocking(TIMEOUT).await(queue.offer(bytes("p0"), 0));
        for (int i = 0; i < 3; i++) {
            QueueItem item = consumer.poll(TIMEOUT).orElseThrow();
            item.complete().join();
            order.add(text(item) + "@" + item.priority());
        }
        assertEquals(List.of("p1-a", "p1-b", "p5-a", "p0@0", "p5-b@5", "p9@9"), order);
    }
}
