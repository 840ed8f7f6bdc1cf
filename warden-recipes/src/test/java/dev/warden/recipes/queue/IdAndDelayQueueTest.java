package dev.warden.recipes.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.recipes.testing.RecipeTarget;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class IdAndDelayQueueTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private RecipeTarget target;

    @BeforeAll
    void start() {
        target = RecipeTarget.start();
    }

    @AfterAll
    void stop() {
        target.close();
    }

    private static String text(QueueItem item) {
        return new String(item.data(), StandardCharsets.UTF_8);
    }

    @Test
    void anIdIsQueuedOnceUntilCompletedAndCanBeRemoved() throws Exception {
        DistributedIdQueue queue = new DistributedIdQueue(target.client(), RecipeTarget.freshPath("idq"));
        assertTrue(queue.offer("a", "1".getBytes()).join());
        assertTrue(queue.offer("b", "2".getBytes()).join());
        assertFalse(queue.offer("a", "3".getBytes()).join(), "a is already queued");
        QueueItem first = queue.poll(WAIT).orElseThrow();
        assertEquals("a", DistributedIdQueue.idOf(first));
        assertEquals("1", text(first));
        assertFalse(queue.offer("a", "4".getBytes()).join(), "a is queued until completed");
        first.complete().join();
        assertTrue(queue.offer("a", "5".getBytes()).join(), "a completed: it may be queued again");
        assertTrue(queue.remove("b").join());
        assertFalse(queue.remove("b").join());
        QueueItem again = queue.poll(WAIT).orElseThrow();
        assertEquals("a", DistributedIdQueue.idOf(again));
        assertEquals("5", text(again));
        again.complete().join();
        assertTrue(queue.poll(Duration.ofMillis(200)).isEmpty());
    }

    @Test
    void racingProducersQueueEachIdOnceAndConsumersCompleteEachOnce() throws Exception {
        String path = RecipeTarget.freshPath("idq-race");
        int ids = 40;
        AtomicInteger queued = new AtomicInteger();
        List<CompletableFuture<Void>> producers = new ArrayList<>();
        for (int p = 0; p < 4; p++) {
            DistributedIdQueue queue = new DistributedIdQueue(target.client(), path);
            producers.add(CompletableFuture.runAsync(() -> {
                for (int i = 0; i < ids; i++) {
                    if (queue.offer("job-" + i, ("job-" + i).getBytes()).join()) {
                        queued.incrementAndGet();
                    }
                }
            }));
        }
        CompletableFuture.allOf(producers.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        assertEquals(ids, queued.get(), "each id queued by exactly one producer");

        Map<String, Integer> completed = new ConcurrentHashMap<>();
        List<CompletableFuture<Void>> consumers = new ArrayList<>();
        for (int c = 0; c < 3; c++) {
            DistributedIdQueue queue = new DistributedIdQueue(target.client(), path);
            consumers.add(CompletableFuture.runAsync(() -> {
                Optional<QueueItem> item;
                while ((item = queue.poll(Duration.ofMillis(500))).isPresent()) {
                    item.get().complete().join();
                    completed.merge(DistributedIdQueue.idOf(item.get()), 1, Integer::sum);
                }
            }));
        }
        CompletableFuture.allOf(consumers.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        assertEquals(ids, completed.size());
        assertTrue(completed.values().stream().allMatch(n -> n == 1), completed.toString());
        assertEquals(List.of(), target.client().getChildren(path + "/ids").join(), "completion removed every id");
    }

    @Test
    void delayedItemsComeWhenDueEarliestFirst() throws Exception {
        DistributedDelayQueue queue = new DistributedDelayQueue(target.client(), RecipeTarget.freshPath("delayq"));
        long startNs = System.nanoTime();
        queue.offer("late".getBytes(), Duration.ofMillis(700)).join();
        queue.offer("soon".getBytes(), Duration.ofMillis(200)).join();
        QueueItem first = queue.poll(WAIT).orElseThrow();
        long firstMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
        QueueItem second = queue.poll(WAIT).orElseThrow();
        long secondMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
        assertEquals("soon", text(first));
        assertEquals("late", text(second));
        assertTrue(firstMs >= 190, "not before due: " + firstMs);
        assertTrue(secondMs >= 690, "not before due: " + secondMs);
        first.complete().join();
        second.complete().join();
    }

    @Test
    void aWaitingConsumerServesAnEarlierItemOfferedWhileItWaits() throws Exception {
        String path = RecipeTarget.freshPath("delayq-wait");
        DistributedDelayQueue producer = new DistributedDelayQueue(target.client(), path);
        DistributedDelayQueue consumer = new DistributedDelayQueue(target.client(), path);
        producer.offer("in-five-seconds".getBytes(), Duration.ofSeconds(5)).join();
        long startNs = System.nanoTime();
        CompletableFuture<QueueItem> taking = consumer.take();
        Thread.sleep(200);
        producer.offer("now-ish".getBytes(), Duration.ofMillis(100)).join();
        QueueItem item = taking.get(3, TimeUnit.SECONDS);
        assertEquals("now-ish", text(item));
        assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs) < 3000);
        item.complete().join();
    }
}
