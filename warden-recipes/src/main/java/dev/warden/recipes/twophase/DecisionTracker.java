package dev.warden.recipes.twophase;

import dev.warden.client.WardenClient;
import dev.warden.client.WardenException;
import dev.warden.client.WatchHandle;
import dev.warden.client.WatchMode;
import dev.warden.protocol.CreateMode;
import dev.warden.recipes.support.EnsurePath;
import dev.warden.recipes.support.Failures;
import dev.warden.recipes.support.PendingWaits;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Works out a transaction's outcome from its nodes and publishes it. Any participant may be
 * first to see that all votes are COMMIT, that one is ABORT, or that a site which joined lost
 * its ephemeral node before voting (it crashed); it then creates the outcome node. The create
 * succeeds once, so everyone ends with the same outcome even if they judged the state at
 * different moments. One recursive watch on the transaction wakes the tracker.
 */
final class DecisionTracker {
    private final WardenClient client;
    private final String tx;
    private final CompletableFuture<Decision> decision;
    private boolean evaluating;
    private boolean changedMeanwhile;
    private volatile WatchHandle watch;

    private DecisionTracker(WardenClient client, String tx, PendingWaits waits) {
        this.client = client;
        this.tx = tx;
        // recursive watches do not report what changed while disconnected: look again
        this.decision = waits.track(new CompletableFuture<>(), this::evaluate);
    }

    static CompletableFuture<Decision> track(WardenClient client, String tx, PendingWaits waits) {
        DecisionTracker tracker = new DecisionTracker(client, tx, waits);
        client.addWatch(tx, WatchMode.PERSISTENT_RECURSIVE, event -> tracker.evaluate()).whenComplete((handle, failure) -> {
            if (failure != null) {
                tracker.decision.completeExceptionally(Failures.cause(failure));
                return;
            }
            tracker.watch = handle;
            if (tracker.decision.isDone()) {
                handle.closeAsync();
            }
            tracker.evaluate();
        });
        tracker.decision.whenComplete((outcome, failure) -> {
            WatchHandle handle = tracker.watch;
            if (handle != null) {
                handle.closeAsync();
            }
        });
        return tracker.decision;
    }

    private void evaluate() {
        synchronized (this) {
            if (decision.isDone()) {
                return;
            }
            if (evaluating) {
                changedMeanwhile = true;
                return;
            }
            evaluating = true;
            changedMeanwhile = false;
        }
        readOutcome().thenCompose(published -> published.isPresent()
                        ? CompletableFuture.completedFuture(published)
                        : judge().thenCompose(judged -> judged.isPresent()
                                ? publish(judged.get()).thenApply(Optional::of)
                                : CompletableFuture.completedFuture(Optional.<Decision>empty())))
                .whenComplete((outcome, failure) -> {
                    boolean again;
                    synchronized (this) {
                        evaluating = false;
                        again = changedMeanwhile;
                    }
                    if (failure != null) {
                        decision.completeExceptionally(Failures.cause(failure));
                    } else if (outcome.isPresent()) {
                        decision.complete(outcome.get());
                    } else if (again) {
                        evaluate();
                    }
                });
    }

    private CompletableFuture<Optional<Decision>> readOutcome() {
        return client.getData(TxLayout.outcome(tx))
                .thenApply(read -> Optional.of(Decision.valueOf(TxLayout.decode(read.data()))))
                .exceptionallyCompose(failure -> Failures.is(failure, WardenException.NoNodeException.class)
                        ? CompletableFuture.completedFuture(Optional.empty())
                        : CompletableFuture.failedFuture(Failures.cause(failure)));
    }

    private CompletableFuture<Optional<Decision>> judge() {
        String votesPath = TxLayout.votes(tx);
        return client.getChildren(votesPath).thenCompose(sites -> {
            Map<String, CompletableFuture<String>> votes = new HashMap<>();
            for (String site : sites) {
                votes.put(site, client.getData(EnsurePath.child(votesPath, site)).thenApply(read -> TxLayout.decode(read.data())));
            }
            // read liveness after the votes: a site seen JOINED and then not alive really died unvoted
            return CompletableFuture.allOf(votes.values().toArray(CompletableFuture[]::new))
                    .thenCompose(ignored -> client.getChildren(TxLayout.alive(tx)))
                    .thenApply(alive -> judge(votes, Set.copyOf(alive)));
        });
    }

    private static Optional<Decision> judge(Map<String, CompletableFuture<String>> votes, Set<String> alive) {
        boolean allCommit = !votes.isEmpty();
        for (Map.Entry<String, CompletableFuture<String>> entry : votes.entrySet()) {
            String vote = entry.getValue().join();
            if (vote.equals(Decision.ABORT.name())) {
                return Optional.of(Decision.ABORT);
            }
            if (vote.equals(TxLayout.JOINED) && !alive.contains(entry.getKey())) {
                return Optional.of(Decision.ABORT);
            }
            allCommit &= vote.equals(Decision.COMMIT.name());
        }
        return allCommit ? Optional.of(Decision.COMMIT) : Optional.empty();
    }

    /** Creates the outcome node; if someone else did first, theirs is the outcome. */
    static CompletableFuture<Decision> publish(WardenClient client, String tx, Decision outcome) {
        return client.create(TxLayout.outcome(tx), TxLayout.encode(outcome.name()), CreateMode.PERSISTENT)
                .thenApply(created -> outcome)
                .exceptionallyCompose(failure -> {
                    if (!Failures.is(failure, WardenException.NodeExistsException.class)
                            && !Failures.is(failure, WardenException.ConnectionLossException.class)) {
                        return CompletableFuture.failedFuture(Failures.cause(failure));
                    }
                    // someone else was first, or our create's reply was lost: read what is there
                    return client.getData(TxLayout.outcome(tx))
                            .thenApply(read -> Decision.valueOf(TxLayout.decode(read.data())))
                            .exceptionallyCompose(readFailure ->
                                    Failures.is(readFailure, WardenException.NoNodeException.class)
                                            ? publish(client, tx, outcome)
                                            : CompletableFuture.failedFuture(Failures.cause(readFailure)));
                });
    }

    private CompletableFuture<Decision> publish(Decision outcome) {
        return publish(client, tx, outcome);
    }
}
