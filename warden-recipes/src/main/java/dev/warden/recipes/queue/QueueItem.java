package dev.warden.recipes.queue;

import dev.warden.client.WardenClient;
import dev.warden.client.WardenException;
import dev.warden.recipes.support.Failures;
import java.util.concurrent.CompletableFuture;

/**
 * An item this consumer has claimed. It stays in the queue until {@link #complete()}; if this
 * consumer's session ends first (crash, expiry, close) the claim goes with it and another
 * consumer receives the item. Delivery is therefore at least once: a consumer that dies after
 * doing the work but before completing causes a second delivery, so work should be idempotent.
 */
public final class QueueItem {
    private final WardenClient client;
    private final String itemPath;
    private final String claimPath;
    private final String name;
    private final byte[] data;
    private final long sequence;
    private final int priority;

    QueueItem(WardenClient client, String itemPath, String claimPath, String name, byte[] data, long sequence, int priority) {
        this.client = client;
        this.itemPath = itemPath;
        this.claimPath = claimPath;
        this.name = name;
        this.data = data;
        this.sequence = sequence;
        this.priority = priority;
    }

    public String name() {
        return name;
    }

    public byte[] data() {
        return data.clone();
    }

    /** The queue's counter for this item: the order in which items were offered. */
    public long sequence() {
        return sequence;
    }

    /** 0 for a FIFO queue; lower is served first in a priority queue. */
    public int priority() {
        return priority;
    }

    /** Removes the item and its claim in one transaction: the work is done. */
    public CompletableFuture<Void> complete() {
        return commitRemoval().exceptionallyCompose(failure -> {
            if (!Failures.is(failure, WardenException.ConnectionLossException.class)
                    || Failures.is(failure, WardenException.ClientClosedException.class)) {
                return CompletableFuture.failedFuture(Failures.cause(failure));
            }
            // transactions are not retried: find out whether ours was applied before the loss
            return client.exists(itemPath).thenCompose(stat -> stat.isEmpty()
                    ? CompletableFuture.completedFuture(null)
                    : commitRemoval());
        });
    }

    private CompletableFuture<Void> commitRemoval() {
        return client.transaction().delete(itemPath, -1).delete(claimPath, -1).commit().thenApply(results -> null);
    }

    /** Gives the item back unprocessed: drops the claim so any consumer may take it. */
    public CompletableFuture<Void> release() {
        return client.delete(claimPath).exceptionallyCompose(failure ->
                Failures.is(failure, WardenException.NoNodeException.class)
                        ? CompletableFuture.completedFuture(null)
                        : CompletableFuture.failedFuture(Failures.cause(failure)));
    }

    @Override
    public String toString() {
        return "QueueItem[" + name + "]";
    }
}
