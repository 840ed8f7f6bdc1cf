package dev.warden.recipes.support;

import dev.warden.client.ConnectionState;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** One try at holding a lock node, from creating it to deleting it. Used once. */
public interface LockAttempt {
    /**
     * Starts trying. {@code timeout} null waits for as long as it takes, zero fails at once
     * if someone else is ahead. Completes true once held, false when it gave up (after removing
     * its node), exceptionally if the session ended or the node vanished while waiting.
     * Cancelling the returned future gives up as well.
     */
    CompletableFuture<Boolean> start(Duration timeout);

    /** Gives up or releases: removes the node if there is one. */
    CompletableFuture<Void> release();

    /** Fed by the owner's single state listener on the client. */
    void connectionStateChanged(ConnectionState state);

    /** The node's path once created, else null. */
    String nodePath();
}
