package dev.warden.recipes.queue;

import dev.warden.client.WardenClient;
import dev.warden.client.WardenException;
import dev.warden.protocol.CreateMode;
import dev.warden.recipes.support.EnsurePath;
import dev.warden.recipes.support.Failures;
import dev.warden.recipes.support.PendingWaits;
import dev.warden.recipes.support.RecipeCalls;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The consuming side shared by both queues. Items live under {@code <queue>/items}; a consumer
 * claims one by creating the ephemeral {@code <queue>/claims/<item>} and only then reads it.
 * Listings are kept and worked through in order; a FIFO consumer lists again only when its
 * listing is used up, a priority consumer also whenever the items change (a more urgent item
 * may have arrived). When a listing yields nothing claimable the consumer waits for a change
 * of the items or of the claims (a claim vanishes when its consumer dies), never polling.
 */
final class ClaimingConsumer {
    private final WardenClient client;
    private final String itemsPath;
    private final String claimsPath;
    private final String queuePath;
    private final ItemKind kind;
    private final PendingWaits waits;
    private final Deque<String> listing = new ArrayDeque<>();
    private CompletableFuture<?> previousTake = CompletableFuture.completedFuture(null);
    private volatile boolean listingStale;
    private volatile boolean pathsExist;

    ClaimingConsumer(WardenClient client, String queuePath, ItemKind kind) {
        this.client = client;
        this.itemsPath = EnsurePath.child(queuePath, "items");
        this.claimsPath = EnsurePath.child(queuePath, "claims");
        this.queuePath = queuePath;
        this.kind = kind;
        this.waits = new PendingWaits(client);
    }

    String itemsPath() {
        return itemsPath;
    }

    CompletableFuture<Void> ensurePaths() {
        if (pathsExist) {
            return CompletableFuture.completedFuture(null);
        }
        return EnsurePath.exists(client, itemsPath).thenCompose(ignored -> EnsurePath.exists(client, claimsPath))
                .thenRun(() -> pathsExist = true);
    }

    /** Takes run one after another, each continuing through the listing the previous one left. */
    synchronized CompletableFuture<QueueItem> take() {
        CompletableFuture<QueueItem> result = waits.track(new CompletableFuture<>());
        CompletableFuture<?> before = previousTake;
        previousTake = result.handle((item, failure) -> null);
        before.whenComplete((ignored, failure) -> ensurePaths().whenComplete((done, pathFailure) -> {
            if (pathFailure != null) {
                result.completeExceptionally(Failures.cause(pathFailure));
            } else {
                next(result);
            }
        }));
        return result;
    }

    private void next(CompletableFuture<QueueItem> result) {
        if (result.isDone()) {
            return; // cancelled or failed by a session end
        }
        String candidate;
        synchronized (this) {
            if (listingStale) {
                listing.clear();
                listingStale = false;
            }
            candidate = listing.pollFirst();
        }
        if (candidate == null) {
            relist(result);
        } else {
            claim(candidate, result);
        }
    }

    private void relist(CompletableFuture<QueueItem> result) {
        CompletableFuture<Void> changed = new CompletableFuture<>();
        // both watches are set before looking, so no change between look and wait is missed
        client.getChildren(claimsPath, event -> changed.complete(null))
                .thenCompose(claims -> client.getChildren(itemsPath, event -> {
                    changed.complete(null);
                    if (kind.relistOnChange()) {
                        listingStale = true;
                    }
                }).thenApply(items -> unclaimed(items, claims)))
                .whenComplete((fresh, failure) -> {
                    if (failure != null) {
                        result.completeExceptionally(Failures.cause(failure));
                        return;
                    }
                    long nowMs = System.currentTimeMillis();
                    List<String> due = fresh.stream().filter(name -> kind.dueAtMs(name) <= nowMs).toList();
                    if (due.isEmpty()) {
                        // Nothing to serve now: wait for a change, or until the earliest item is due.
                        fresh.stream().mapToLong(kind::dueAtMs).min().ifPresent(earliestMs ->
                                CompletableFuture.delayedExecutor(Math.max(1, earliestMs - nowMs), TimeUnit.MILLISECONDS)
                                        .execute(() -> changed.complete(null)));
                        changed.thenRun(() -> next(result));
                    } else {
                        synchronized (this) {
                            listing.clear();
                            listing.addAll(due);
                            listingStale = false;
                        }
                        next(result);
                    }
                });
    }

    private List<String> unclaimed(List<String> items, List<String> claims) {
        return items.stream()
                .filter(ItemNames::isItem)
                .filter(name -> !claims.contains(name))
                .sorted(kind.order())
                .toList();
    }

    private void claim(String name, CompletableFuture<QueueItem> result) {
        String claimPath = EnsurePath.child(claimsPath, name);
        String itemPath = EnsurePath.child(itemsPath, name);
        client.create(claimPath, new byte[0], CreateMode.EPHEMERAL).whenComplete((created, failure) -> {
            if (failure == null) {
                read(name, claimPath, itemPath, result);
            } else if (Failures.is(failure, WardenException.NodeExistsException.class)
                    || RecipeCalls.isConnectionLoss(failure)) {
                checkClaim(name, claimPath, itemPath, result);
            } else {
                result.completeExceptionally(Failures.cause(failure));
            }
        });
    }

    /**
     * After a lost reply (the client does not resend creates) or "exists", the claim may be our
     * own: a create applied before the connection broke. Ours: go on with it; another
     * consumer's: next item; none: claim again.
     */
    private void checkClaim(String name, String claimPath, String itemPath, CompletableFuture<QueueItem> result) {
        client.exists(claimPath).whenComplete((stat, failure) -> {
            if (failure != null) {
                result.completeExceptionally(Failures.cause(failure));
            } else if (stat.isEmpty()) {
                claim(name, result);
            } else if (stat.get().ephemeralOwner() == client.sessionId()) {
                read(name, claimPath, itemPath, result);
            } else {
                next(result);
            }
        });
    }

    private void read(String name, String claimPath, String itemPath, CompletableFuture<QueueItem> result) {
        client.getData(itemPath).whenComplete((read, readFailure) -> {
            if (readFailure == null) {
                QueueItem item = new QueueItem(client, itemPath, claimPath, name, read.data(),
                        ItemNames.sequence(name), kind.priority(name), kind.alsoDeletedOnCompletion(queuePath, name));
                if (!result.complete(item)) {
                    item.release(); // the taker gave up meanwhile: hand the item back
                }
            } else if (Failures.is(readFailure, WardenException.NoNodeException.class)) {
                // completed by its previous claimant between our listing and our claim
                RecipeCalls.deleteOwnEphemeral(client, claimPath).whenComplete((ignored, deleteFailure) -> next(result));
            } else {
                result.completeExceptionally(Failures.cause(readFailure));
            }
        });
    }
}
