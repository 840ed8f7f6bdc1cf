package dev.warden.recipes.rendezvous;

import dev.warden.client.DataAndStat;
import dev.warden.client.WardenClient;
import dev.warden.client.WardenException;
import dev.warden.protocol.Stat;
import dev.warden.recipes.support.EnsurePath;
import dev.warden.recipes.support.Failures;
import dev.warden.recipes.support.PendingWaits;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * Rendezvous through one znode: a process that will learn something later (say, a worker
 * waiting for its master's address) waits until the node exists with non-empty data, then
 * reads it. The node may be created empty in advance ({@link #prepare}) or not at all.
 *
 * <p>Waiting costs one watch and no polling. Connection: while SUSPENDED the wait continues
 * (the client re-registers the watch and the server reports what changed meanwhile). On LOST
 * or CLOSED every pending wait fails with {@code SessionExpiredException} or
 * {@code ClientClosedException}. A failed read (connection loss beyond the client's retry
 * policy) fails the wait with that error.
 */
public final class Rendezvous {
    private final WardenClient client;
    private final String path;
    private final PendingWaits waits;

    public Rendezvous(WardenClient client, String path) {
        this.client = client;
        this.path = path;
        this.waits = new PendingWaits(client);
    }

    /** Creates the node empty (with parents) so others can see a rendezvous is expected. */
    public CompletableFuture<Void> prepare() {
        return EnsurePath.exists(client, path);
    }

    /** Fills the node in (creating it if needed); waiters then read {@code data}. */
    public CompletableFuture<Stat> fill(byte[] data) {
        if (data.length == 0) {
            throw new IllegalArgumentException("rendezvous data must not be empty: empty means not filled in");
        }
        return EnsurePath.exists(client, path).thenCompose(ignored -> client.setData(path, data));
    }

    /** Completes with the node's data once it exists and is non-empty. Cancel to stop waiting. */
    public CompletableFuture<DataAndStat> awaitFilled() {
        CompletableFuture<DataAndStat> result = waits.track(new CompletableFuture<>());
        check(result);
        return result;
    }

    /** Blocking form: the data, or {@code WardenException.TimeoutException} after {@code timeout}. */
    public DataAndStat awaitFilled(Duration timeout) {
        CompletableFuture<DataAndStat> wait = awaitFilled();
        try {
            return client.blocking(timeout).await(wait);
        } finally {
            wait.cancel(false);
        }
    }

    private void check(CompletableFuture<DataAndStat> result) {
        if (result.isDone()) {
            return;
        }
        client.getData(path, event -> check(result)).whenComplete((read, failure) -> {
            if (failure == null) {
                if (read.data().length > 0) {
                    result.complete(read);
                }
                // empty: the data watch just set fires when it is filled in
            } else if (Failures.cause(failure) instanceof WardenException.NoNodeException) {
                // a failed getData sets no watch; exists does, and covers a create in between
                client.exists(path, event -> check(result)).whenComplete((stat, again) -> {
                    if (again != null) {
                        result.completeExceptionally(Failures.cause(again));
                    } else if (stat.isPresent()) {
                        check(result);
                    }
                });
            } else {
                result.completeExceptionally(Failures.cause(failure));
            }
        });
    }
}
