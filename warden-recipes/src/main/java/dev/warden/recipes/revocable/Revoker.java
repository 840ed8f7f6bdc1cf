package dev.warden.recipes.revocable;

import dev.warden.client.WardenClient;
import dev.warden.client.WardenException;
import dev.warden.client.WatchEvent;
import dev.warden.recipes.support.RecipeCalls;
import dev.warden.recipes.support.RecipePaths;
import dev.warden.recipes.support.SequenceNames;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Asks holders of revocable locks to give them up and, after a grace period the revoker
 * chooses, takes them by force by deleting their lock node (the holder's session survives;
 * the holder is told {@code LOST}). Any client can revoke; it needs no lock itself.
 */
public final class Revoker {
    private final WardenClient client;

    public Revoker(WardenClient client) {
        this.client = client;
    }

    /** The lock nodes under {@code lockDir}, first in line first (holders come first). */
    public CompletableFuture<List<String>> lockNodes(String lockDir) {
        RecipePaths.checkDirectory(lockDir);
        return client.getChildren(lockDir).thenApply(children -> SequenceNames
                .sortedParticipants(children, List.of("read-", "write-")).stream()
                .map(name -> RecipePaths.child(lockDir, name)).toList());
    }

    /**
     * Asks the holder of {@code lockNodePath} to release. {@code forceAfter} null waits for the
     * holder for as long as it takes; otherwise the node is deleted once that much time passed.
     */
    public CompletableFuture<RevocationOutcome> revoke(String lockNodePath, Duration forceAfter) {
        RecipePaths.checkDirectory(lockNodePath);
        if (forceAfter != null && forceAfter.isNegative()) {
            throw new IllegalArgumentException("negative grace period: " + forceAfter);
        }
        CompletableFuture<RevocationOutcome> outcome = new CompletableFuture<>();
        AtomicBoolean forcing = new AtomicBoolean();
        client.setData(lockNodePath, RevocableReadWriteLock.UNLOCK_REQUEST).whenComplete((stat, error) -> {
            if (RecipeCalls.unwrap(error) instanceof WardenException.NoNodeException) {
                outcome.complete(RevocationOutcome.ALREADY_GONE);
            } else if (error != null) {
                outcome.completeExceptionally(RecipeCalls.unwrap(error));
            } else {
                awaitRelease(lockNodePath, outcome, forcing);
                if (forceAfter != null) {
                    CompletableFuture.delayedExecutor(forceAfter.toMillis(), TimeUnit.MILLISECONDS)
                            .execute(() -> force(lockNodePath, outcome, forcing));
                }
            }
        });
        return outcome;
    }

    /** Blocking {@link #revoke}, waiting at most {@code timeout} for the outcome. */
    public RevocationOutcome revoke(String lockNodePath, Duration forceAfter, Duration timeout) {
        return RecipeCalls.await(revoke(lockNodePath, forceAfter), timeout);
    }

    private void awaitRelease(String path, CompletableFuture<RevocationOutcome> outcome, AtomicBoolean forcing) {
        if (outcome.isDone()) {
            return;
        }
        client.exists(path, event -> {
            if (event.kind() == WatchEvent.Kind.NODE_DELETED) {
                // Our own forced delete fires this watch before its reply: the reply decides then.
                if (!forcing.get()) {
                    outcome.complete(RevocationOutcome.RELEASED);
                }
            } else {
                awaitRelease(path, outcome, forcing);
            }
        }).whenComplete((stat, error) -> {
            if (error == null && stat.isEmpty()) {
                outcome.complete(RevocationOutcome.RELEASED);
            } else if (error != null && RecipeCalls.isConnectionLoss(error)) {
                awaitRelease(path, outcome, forcing);
            } else if (error != null) {
                outcome.completeExceptionally(RecipeCalls.unwrap(error));
            }
        });
    }

    private void force(String path, CompletableFuture<RevocationOutcome> outcome, AtomicBoolean forcing) {
        if (outcome.isDone()) {
            return;
        }
        forcing.set(true);
        client.delete(path).whenComplete((ok, error) -> {
            if (error == null) {
                outcome.complete(RevocationOutcome.FORCED);
            } else if (RecipeCalls.unwrap(error) instanceof WardenException.NoNodeException) {
                outcome.complete(RevocationOutcome.RELEASED);
            } else {
                outcome.completeExceptionally(RecipeCalls.unwrap(error));
            }
        });
    }
}
