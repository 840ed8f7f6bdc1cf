package dev.warden.recipes.twophase;

import dev.warden.client.Transaction;
import dev.warden.client.WardenClient;
import dev.warden.client.WardenException;
import dev.warden.protocol.CreateMode;
import dev.warden.recipes.support.EnsurePath;
import dev.warden.recipes.support.Failures;
import dev.warden.recipes.support.PendingWaits;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The coordinator of two-phase commits under one parent node. As on the recipes page, its only
 * roles are to choose the sites, create the transaction's nodes (in one atomic multi, so a
 * transaction never exists half-made) and pass the payload on, here through the transaction
 * node itself. The sites decide among themselves ({@link TwoPhaseSite}).
 *
 * <p>A site that never joins cannot be detected as crashed (it has no ephemeral node yet), so
 * a coordinator that gives up waiting calls {@link #abortIfUndecided}; the first outcome
 * published wins, so that is safe at any time.
 *
 * <p>Connection: {@link #begin} is a single transaction, never retried on connection loss (it
 * fails with {@code ConnectionLossException}; calling it again reports
 * {@code NodeExistsException} if the first attempt was applied). Waits fail on LOST / CLOSED.
 */
public final class TwoPhaseCoordinator {
    private final WardenClient client;
    private final String root;
    private final PendingWaits waits;

    public TwoPhaseCoordinator(WardenClient client, String root) {
        this.client = client;
        this.root = root;
        this.waits = new PendingWaits(client);
    }

    /** Creates transaction {@code name} for {@code sites} carrying {@code payload}; completes with its path. */
    public CompletableFuture<String> begin(String name, byte[] payload, List<String> sites) {
        TxLayout.checkSiteName(name);
        if (sites.isEmpty() || new LinkedHashSet<>(sites).size() != sites.size()) {
            throw new IllegalArgumentException("sites must be non-empty and distinct: " + sites);
        }
        sites.forEach(TxLayout::checkSiteName);
        String tx = EnsurePath.child(root, name);
        Transaction create = client.transaction()
                .create(tx, payload, CreateMode.PERSISTENT)
                .create(TxLayout.votes(tx), new byte[0], CreateMode.PERSISTENT)
                .create(TxLayout.alive(tx), new byte[0], CreateMode.PERSISTENT);
        for (String site : sites) {
            create.create(TxLayout.vote(tx, site), new byte[0], CreateMode.PERSISTENT);
        }
        return EnsurePath.exists(client, root).thenCompose(ignored -> create.commit()).thenApply(results -> tx);
    }

    /** Completes with the transaction's outcome once one is published. */
    public CompletableFuture<Decision> awaitDecision(String tx) {
        return DecisionTracker.track(client, tx, waits);
    }

    /** Blocking form: the outcome, or {@code WardenException.TimeoutException}. */
    public Decision awaitDecision(String tx, Duration timeout) {
        CompletableFuture<Decision> wait = awaitDecision(tx);
        try {
            return client.blocking(timeout).await(wait);
        } finally {
            wait.cancel(false);
        }
    }

    /** Publishes ABORT unless an outcome exists; completes with the outcome that holds. */
    public CompletableFuture<Decision> abortIfUndecided(String tx) {
        return DecisionTracker.publish(client, tx, Decision.ABORT);
    }

    /** Deletes a decided transaction's nodes; fails with {@code IllegalStateException} if undecided. */
    public CompletableFuture<Void> delete(String tx) {
        return client.exists(TxLayout.outcome(tx)).thenCompose(outcome -> {
            if (outcome.isEmpty()) {
                throw new IllegalStateException("transaction " + tx + " is not decided yet");
            }
            return deleteTree(tx);
        });
    }

    private CompletableFuture<Void> deleteTree(String path) {
        return client.getChildren(path).thenCompose(children -> {
            CompletableFuture<?>[] below = children.stream()
                    .map(child -> deleteTree(EnsurePath.child(path, child)))
                    .toArray(CompletableFuture[]::new);
            return CompletableFuture.allOf(below);
        }).thenCompose(ignored -> client.delete(path)).exceptionallyCompose(failure ->
                Failures.is(failure, WardenException.NoNodeException.class)
                        ? CompletableFuture.completedFuture(null)
                        : CompletableFuture.failedFuture(Failures.cause(failure)));
    }
}
