package dev.warden.recipes.queue;

import dev.warden.client.WardenClient;
import dev.warden.client.WardenException;
import dev.warden.protocol.CreateMode;
import dev.warden.recipes.support.EnsurePath;
import dev.warden.recipes.support.Failures;
import dev.warden.recipes.support.RecipeCalls;
import dev.warden.recipes.support.TimedWait;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * A FIFO queue whose items carry an id, and that holds each id at most once: offering an id that
 * is already queued (offered and not yet completed or removed) adds nothing. Items can also be
 * removed by id before anyone takes them. Consumers, claims, crash behaviour and connection
 * handling are those of {@link DistributedQueue}.
 *
 * <p><b>How.</b> An offer creates {@code <queue>/ids/<id>} and the item {@code item-<id>-<seq>}
 * in one transaction, so the id node's existence is the "already queued" test and no item can
 * exist without it. Completing an item deletes item, claim and id node in one transaction.
 * A transaction whose reply is lost is not resent by the client; the offer then reads the id
 * node, whose data is the offer's own token, to learn whether it was this offer that queued it.
 */
public final class DistributedIdQueue {
    private static final int OFFER_ATTEMPTS = 5;

    private final WardenClient client;
    private final String idsPath;
    private final ClaimingConsumer consumer;

    public DistributedIdQueue(WardenClient client, String path) {
        this.client = client;
        this.idsPath = EnsurePath.child(path, "ids");
        this.consumer = new ClaimingConsumer(client, path, new IdItems());
    }

    /** Item names {@code item-<id>-<seq>}, served in sequence order; completion removes the id node too. */
    private static final class IdItems implements ItemKind {
        @Override
        public Comparator<String> order() {
            return ItemNames.order(false);
        }

        @Override
        public boolean relistOnChange() {
            return false;
        }

        @Override
        public List<String> alsoDeletedOnCompletion(String queuePath, String name) {
            return List.of(EnsurePath.child(EnsurePath.child(queuePath, "ids"), idOf(name)));
        }
    }

    static String idOf(String itemName) {
        return itemName.substring(ItemNames.PREFIX.length(), itemName.length() - 11);
    }

    private static void checkId(String id) {
        if (id == null || id.isEmpty() || id.contains("/") || id.equals(".") || id.equals("..")) {
            throw new IllegalArgumentException("a queue item id must be a node name (no '/'), got: " + id);
        }
    }

    /** Queues {@code data} under {@code id}; completes with true if this call queued it, false if the id was already queued. */
    public CompletableFuture<Boolean> offer(String id, byte[] data) {
        checkId(id);
        byte[] token = UUID.randomUUID().toString().getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        return consumer.ensurePaths().thenCompose(ignored -> EnsurePath.exists(client, idsPath))
                .thenCompose(ignored -> offerAttempt(id, data, token, 1));
    }

    private CompletableFuture<Boolean> offerAttempt(String id, byte[] data, byte[] token, int attempt) {
        String idPath = EnsurePath.child(idsPath, id);
        String itemPath = EnsurePath.child(consumer.itemsPath(), ItemNames.PREFIX + id + "-");
        return client.transaction().create(idPath, token, CreateMode.PERSISTENT)
                .create(itemPath, data, CreateMode.PERSISTENT_SEQUENTIAL).commit()
                .handle((results, failure) -> {
                    if (failure == null) {
                        return CompletableFuture.completedFuture(true);
                    }
                    if (Failures.is(failure, WardenException.NodeExistsException.class)) {
                        return CompletableFuture.completedFuture(false);
                    }
                    if (!RecipeCalls.isConnectionLoss(failure) || attempt >= OFFER_ATTEMPTS) {
                        return CompletableFuture.<Boolean>failedFuture(Failures.cause(failure));
                    }
                    // Applied before the connection broke? The id node carries our token if so.
                    return client.getData(idPath).handle((read, readFailure) -> {
                        if (readFailure == null) {
                            return CompletableFuture.completedFuture(java.util.Arrays.equals(token, read.data()));
                        }
                        if (Failures.is(readFailure, WardenException.NoNodeException.class)) {
                            return offerAttempt(id, data, token, attempt + 1);
                        }
                        return CompletableFuture.<Boolean>failedFuture(Failures.cause(readFailure));
                    }).thenCompose(next -> next);
                }).thenCompose(next -> next);
    }

    /** Removes the item with {@code id} if it is queued; true if it was. A claimed item's completion then fails with NO_NODE. */
    public CompletableFuture<Boolean> remove(String id) {
        checkId(id);
        String prefix = ItemNames.PREFIX + id + "-";
        return consumer.ensurePaths().thenCompose(ignored -> client.getChildren(consumer.itemsPath()))
                .thenCompose(names -> {
                    Optional<String> item = names.stream()
                            .filter(name -> name.startsWith(prefix) && ItemNames.isItem(name) && idOf(name).equals(id))
                            .findFirst();
                    if (item.isEmpty()) {
                        return CompletableFuture.completedFuture(false);
                    }
                    return client.transaction().delete(EnsurePath.child(consumer.itemsPath(), item.get()), -1)
                            .delete(EnsurePath.child(idsPath, id), -1).commit()
                            .handle((results, failure) -> {
                                if (failure == null) {
                                    return true;
                                }
                                if (Failures.is(failure, WardenException.NoNodeException.class)) {
                                    return false;   // completed or removed meanwhile
                                }
                                throw new java.util.concurrent.CompletionException(Failures.cause(failure));
                            });
                });
    }

    /** Claims the next item (its id is {@link #idOf(QueueItem)}), waiting for one. */
    public CompletableFuture<QueueItem> take() {
        return consumer.take();
    }

    public Optional<QueueItem> poll(Duration timeout) {
        CompletableFuture<QueueItem> taking = take();
        return TimedWait.awaitOrFalse(client, taking, timeout) ? Optional.of(taking.join()) : Optional.empty();
    }

    /** The id of an item taken from this queue. */
    public static String idOf(QueueItem item) {
        return idOf(item.name());
    }
}
