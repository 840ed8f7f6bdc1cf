package dev.warden.recipes.barrier;

import dev.warden.client.WardenClient;
import dev.warden.client.WardenException;
import dev.warden.protocol.CreateMode;
import dev.warden.recipes.support.EnsurePath;
import dev.warden.recipes.support.Failures;
import dev.warden.recipes.support.PendingWaits;
import dev.warden.recipes.support.TimedWait;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * A barrier (event handle): the barrier is up while its node exists; waiters proceed once it
 * is gone. Waiting costs one watch, re-set after each event, and no polling.
 *
 * <p>Crash of the process that raised it: a barrier raised with {@link #raise()} stays up
 * until someone lifts it, so waiters would wait until their timeout; one raised with
 * {@link #raiseForSession()} is an ephemeral node and lifts itself when the raiser's session
 * ends (crash, expiry or close), releasing the waiters. Pick the second when a dead raiser
 * must not hold others back.
 *
 * <p>Connection: SUSPENDED waits continue; on LOST or CLOSED pending waits fail with
 * {@code SessionExpiredException} / {@code ClientClosedException}.
 */
public final class Barrier {
    private final WardenClient client;
    private final String path;
    private final PendingWaits waits;

    public Barrier(WardenClient client, String path) {
        this.client = client;
        this.path = path;
        this.waits = new PendingWaits(client);
    }

    /** Raises the barrier until {@link #lift()}; already up is fine. */
    public CompletableFuture<Void> raise() {
        return create(CreateMode.PERSISTENT);
    }

    /** Raises the barrier for as long as this client's session lives (or until lifted). */
    public CompletableFuture<Void> raiseForSession() {
        return create(CreateMode.EPHEMERAL);
    }

    private CompletableFuture<Void> create(CreateMode mode) {
        return EnsurePath.exists(client, EnsurePath.parentOf(path))
                .thenCompose(ignored -> client.create(path, new byte[0], mode))
                .<Void>thenApply(created -> null)
                .exceptionallyCompose(failure -> Failures.is(failure, WardenException.NodeExistsException.class)
                        ? CompletableFuture.completedFuture(null)
                        : CompletableFuture.failedFuture(Failures.cause(failure)));
    }

    /** Lifts the barrier; already lifted is fine. */
    public CompletableFuture<Void> lift() {
        return client.delete(path).exceptionallyCompose(failure ->
                Failures.is(failure, WardenException.NoNodeException.class)
                        ? CompletableFuture.completedFuture(null)
                        : CompletableFuture.failedFuture(Failures.cause(failure)));
    }

    /** Completes once the barrier node does not exist. Cancel to stop waiting. */
    public CompletableFuture<Void> awaitLifted() {
        CompletableFuture<Void> result = waits.track(new CompletableFuture<>());
        check(result);
        return result;
    }

    /** Blocking form: true once lifted, false if {@code timeout} passed first. */
    public boolean awaitLifted(Duration timeout) {
        return TimedWait.awaitOrFalse(client, awaitLifted(), timeout);
    }

    private void check(CompletableFuture<Void> result) {
        if (result.isDone()) {
            return;
        }
        client.exists(path, event -> check(result)).whenComplete((stat, failure) -> {
            if (failure != null) {
                result.completeExceptionally(Failures.cause(failure));
            } else if (stat.isEmpty()) {
                result.complete(null);
            }
        });
    }
}
