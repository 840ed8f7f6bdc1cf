package dev.warden.recipes.queue;

import dev.warden.client.WardenClient;
import dev.warden.recipes.support.TimedWait;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A priority queue: each item carries a priority 0..999, lower served first, equal priorities
 * in offer order. Unlike the FIFO queue, a consumer drops its listing whenever the items
 * change, so a more urgent item offered meanwhile is served next. Claims, crash behaviour and
 * connection handling are those of {@link DistributedQueue}.
 */
public final class DistributedPriorityQueue {
    private final WardenClient client;
    private final ClaimingConsumer consumer;

    public DistributedPriorityQueue(WardenClient client, String path) {
        this.client = client;
        this.consumer = new ClaimingConsumer(client, path, ItemKind.PRIORITY);
    }

    /** Adds an item with a priority (0 most urgent, 999 least); completes with its node name. */
    public CompletableFuture<String> offer(byte[] data, int priority) {
        return DistributedQueue.offer(client, consumer, data, ItemNames.prefix(priority, true));
    }

    /** Claims the next item, waiting for one if the queue is empty. Cancel to stop waiting. */
    public CompletableFuture<QueueItem> take() {
        return consumer.take();
    }

    /** Blocking form: the next item, or empty if none could be claimed within {@code timeout}. */
    public Optional<QueueItem> poll(Duration timeout) {
        CompletableFuture<QueueItem> taking = take();
        return TimedWait.awaitOrFalse(client, taking, timeout) ? Optional.of(taking.join()) : Optional.empty();
    }

    /** Items in the queue, claimed or not. */
    public CompletableFuture<Integer> size() {
        return consumer.ensurePaths().thenCompose(ignored -> client.getChildren(consumer.itemsPath()))
                .thenApply(names -> (int) names.stream().filter(ItemNames::isItem).count());
    }
}
