package dev.warden.recipes.queue;

import dev.warden.client.WardenClient;
import dev.warden.recipes.support.Failures;
import dev.warden.recipes.support.RecipeCalls;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * An item this consumer has claimed. It stays in the queue until {@link #complete()}; if this
 * consumer's session ends first (crash, expiry, close) the claim goes with it and another
 * consumer receives the item. Delivery is therefore at least once: a consumer that dies after
 * doing the work but before completing causes a second delivery, so work should be idempotent.
 */
public final class QueueItem {
    /** Transactions sent for one completion at most, each after a lost reply. */
    private static final int COMPLETE_ATTEMPTS = 5;

    private final WardenClient client;
    private final String itemPath;
    private final String claimPath;
    private final String name;
    private final byte[] data;
    private final long sequence;
    private final int priority;
    private final List<String> alsoDeleted;

    QueueItem(WardenClient client, String itemPath, String claimPath, String name, byte[] data, long sequence, int priority,
              List<String> alsoDeleted) {
        this.alsoDeleted = List.copyOf(alsoDeleted);
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
        return completeAttempt(1);
    }

    private CompletableFuture<Void> completeAttempt(int attempt) {
        return commitRemoval().exceptionallyCompose(failure -> {
            if (!RecipeCalls.isConnectionLoss(failure) || attempt >= COMPLETE_ATTEMPTS) {
                return CompletableFuture.failedFuture(Failures.cause(failure));
            }
            // transactions are not retried: find out whether ours was applied before the loss
            // (only the claim's holder removes an item), and send it again if not
            return client.exists(itemPath).thenCompose(stat -> stat.isEmpty()
                    ? CompletableFuture.completedFuture(null)
                    : completeAttempt(attempt + 1));
        });
    }

    private CompletableFuture<Void> commitRemoval() {
        var transaction = client.transaction().delete(itemPath, -1).delete(claimPath, -1);
        for (String path : alsoDeleted) {
            transaction.delete(path, -1);
        }
        return transaction.commit().thenApply(results -> null);
    }

    /**
     * Gives the item back unprocessed: drops the claim so any consumer may take it. A claim whose
     * delete lost its reply is deleted again while it is still this session's, so a lost reply
     * cannot leave the item claimed by a live session that no longer works on it.
     */
    public CompletableFuture<Void> release() {
        return RecipeCalls.deleteOwnEphemeral(client, claimPath);
    }

    @Override
    public String toString() {
        return "QueueItem[" + name + "]";
    }
}
