package dev.warden.recipes.queue;

import dev.warden.client.WardenClient;
import dev.warden.recipes.support.TimedWait;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A queue whose items are served no earlier than their due time, earliest due first (equal
 * times in offer order). A consumer with nothing due waits for the earliest due time or a change
 * of the items (an earlier item may arrive), whichever comes first; it never polls.
 *
 * <p><b>Clocks.</b> Due times are wall-clock milliseconds of the offering process, compared with
 * the consuming process's clock: skew between machines shifts delivery by that much.
 * Claims, crash behaviour and connection handling are those of {@link DistributedQueue}.
 */
public final class DistributedDelayQueue {
    private static final int DUE_DIGITS = 13;

    private final WardenClient client;
    private final ClaimingConsumer consumer;

    public DistributedDelayQueue(WardenClient client, String path) {
        this.client = client;
        this.consumer = new ClaimingConsumer(client, path, new DelayedItems());
    }

    /** Item names {@code item-<due ms, 13 digits>-<seq>}. */
    private static final class DelayedItems implements ItemKind {
        @Override
        public Comparator<String> order() {
            return Comparator.comparingLong(DistributedDelayQueue::dueOf).thenComparingLong(ItemNames::sequence);
        }

        @Override
        public boolean relistOnChange() {
            return true;
        }

        @Override
        public long dueAtMs(String name) {
            return dueOf(name);
        }
    }

    static long dueOf(String name) {
        int start = name.indexOf(ItemNames.PREFIX) + ItemNames.PREFIX.length();
        try {
            return Long.parseLong(name.substring(start, start + DUE_DIGITS));
        } catch (RuntimeException notOurs) {
            return 0;
        }
    }

    /** Queues {@code data} to be served from {@code dueAt} on; completes with the item's name. */
    public CompletableFuture<String> offer(byte[] data, Instant dueAt) {
        long dueMs = Math.max(0, dueAt.toEpochMilli());
        String prefix = ItemNames.PREFIX + String.format("%0" + DUE_DIGITS + "d", dueMs) + "-";
        return DistributedQueue.offer(client, consumer, data, prefix);
    }

    /** Queues {@code data} to be served after {@code delay}. */
    public CompletableFuture<String> offer(byte[] data, Duration delay) {
        return offer(data, Instant.now().plus(delay));
    }

    /** Claims the next due item, waiting until one is due. */
    public CompletableFuture<QueueItem> take() {
        return consumer.take();
    }

    public Optional<QueueItem> poll(Duration timeout) {
        CompletableFuture<QueueItem> taking = take();
        return TimedWait.awaitOrFalse(client, taking, timeout) ? Optional.of(taking.join()) : Optional.empty();
    }
}
