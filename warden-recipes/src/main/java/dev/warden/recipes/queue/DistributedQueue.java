package dev.warden.recipes.queue;

import dev.warden.client.WardenClient;
import dev.warden.protocol.CreateMode;
import dev.warden.protocol.Perms;
import dev.warden.recipes.support.EnsurePath;
import dev.warden.recipes.support.TimedWait;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A FIFO queue: items are persistent sequential nodes served in sequence order. A consumer
 * works through one listing before listing again (few reads, at the cost of serving items
 * offered meanwhile a little later). Taking claims an item (see {@link QueueItem}); no item is
 * lost when a consumer dies mid-item, it is delivered again.
 *
 * <p>Ordering: items are handed out in sequence order, each to one consumer at a time; with
 * several consumers, completions may of course interleave.
 *
 * <p>Connection: an offer survives connection loss without duplicates (protected create). On
 * SUSPENDED a waiting take keeps waiting; on LOST or CLOSED pending takes fail with
 * {@code SessionExpiredException} / {@code ClientClosedException}, and items this consumer had
 * claimed but not completed return to the queue.
 */
public final class DistributedQueue {
    private final WardenClient client;
    private final ClaimingConsumer consumer;

    public DistributedQueue(WardenClient client, String path) {
        this.client = client;
        this.consumer = new ClaimingConsumer(client, path, ItemKind.FIFO);
    }

    /** Adds an item; completes with its node name. */
    public CompletableFuture<String> offer(byte[] data) {
        return offer(client, consumer, data, ItemNames.prefix(0, false));
    }

    static CompletableFuture<String> offer(WardenClient client, ClaimingConsumer consumer, byte[] data, String prefix) {
        String path = EnsurePath.child(consumer.itemsPath(), prefix);
        return consumer.ensurePaths()
                .thenCompose(ignored -> client.createProtected(path, data, Perms.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT_SEQUENTIAL))
                .thenApply(created -> created.path().substring(created.path().lastIndexOf('/') + 1));
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
