package dev.warden.recipes.support;

import dev.warden.client.WardenClient;
import dev.warden.client.WardenException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/** Unwrapping of future failures, blocking waits and the one delete every recipe needs. */
public final class RecipeCalls {
    /** Attempts of a release delete whose reply was lost; each waits for the next connection. */
    private static final int DELETE_ATTEMPTS = 5;

    private RecipeCalls() {
    }

    public static Throwable unwrap(Throwable error) {
        Throwable cause = error;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    public static boolean isConnectionLoss(Throwable error) {
        Throwable cause = unwrap(error);
        return cause instanceof WardenException.ConnectionLossException
                && !(cause instanceof WardenException.ClientClosedException);
    }

    /**
     * Waits for a recipe future at most {@code timeout}, rethrowing its failure unwrapped.
     * Must not be called from a callback of the client the recipe uses.
     */
    public static <T> T await(CompletableFuture<T> future, Duration timeout) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WardenException.TimeoutException("interrupted while waiting");
        } catch (java.util.concurrent.TimeoutException e) {
            throw new WardenException.TimeoutException("no result within " + timeout.toMillis() + " ms");
        } catch (ExecutionException e) {
            Throwable cause = unwrap(e);
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(cause);
        }
    }

    /**
     * Deletes a node we own, treating "already gone" as success. An unversioned delete is not
     * retried by the client after a lost reply, so it is re-sent here: deleting is idempotent
     * for our purpose, and leaving our ephemeral behind would block every later participant.
     */
    public static CompletableFuture<Void> deleteIfExists(WardenClient client, String path) {
        return deleteAttempt(client, path, 1, false);
    }

    /**
     * Deletes an ephemeral node this session created at a path other sessions may also create
     * (a queue item's claim), treating "already gone" as success. After a lost reply the node is
     * deleted again only if it is still this session's: a blind re-send could delete the node
     * another session created there after our first delete was applied.
     */
    public static CompletableFuture<Void> deleteOwnEphemeral(WardenClient client, String path) {
        return deleteAttempt(client, path, 1, true);
    }

    /**
     * One delete; after a lost reply, the next attempt. With {@code onlyIfOurs} the node is first
     * looked up (exists is retried by the client) and deleted again only if this session still
     * owns it.
     */
    private static CompletableFuture<Void> deleteAttempt(WardenClient client, String path, int attempt,
                                                         boolean onlyIfOurs) {
        return client.delete(path).handle((ok, error) -> {
            Throwable cause = unwrap(error);
            if (cause == null || cause instanceof WardenException.NoNodeException
                    || cause instanceof WardenException.SessionExpiredException) {
                // An expired session's ephemerals are gone with it.
                return CompletableFuture.<Void>completedFuture(null);
            }
            if (!isConnectionLoss(cause) || attempt >= DELETE_ATTEMPTS) {
                return CompletableFuture.<Void>failedFuture(cause);
            }
            if (!onlyIfOurs) {
                return deleteAttempt(client, path, attempt + 1, false);
            }
            return client.exists(path).thenCompose(stat ->
                    stat.isPresent() && stat.get().ephemeralOwner() == client.sessionId()
                            ? deleteAttempt(client, path, attempt + 1, true)
                            : CompletableFuture.<Void>completedFuture(null));
        }).thenCompose(next -> next);
    }
}
