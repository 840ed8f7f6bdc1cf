package dev.warden.recipes.semaphore;

import dev.warden.client.WardenClient;
import dev.warden.recipes.support.RecipeCalls;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * One permit of a {@link CountingSemaphore}: an ephemeral node under the semaphore's
 * {@code leases} directory. Closing it deletes the node and frees the permit; so does the end of
 * the holder's session.
 */
public final class Lease implements AutoCloseable {
    private final WardenClient client;
    private final String nodePath;
    private final CountingSemaphore semaphore;
    private volatile boolean released;
    private volatile boolean lost;

    Lease(WardenClient client, String nodePath, CountingSemaphore semaphore) {
        this.client = client;
        this.nodePath = nodePath;
        this.semaphore = semaphore;
    }

    public String nodePath() {
        return nodePath;
    }

    /** True until released, or known to be lost (its session ended or its node was deleted). */
    public boolean isValid() {
        return !released && !lost;
    }

    void markLost() {
        lost = true;
    }

    /** Frees the permit (deletes the node, again after a lost reply). */
    public CompletableFuture<Void> releaseAsync() {
        if (released) {
            return CompletableFuture.completedFuture(null);
        }
        released = true;
        semaphore.forget(this);
        return RecipeCalls.deleteIfExists(client, nodePath);
    }

    @Override
    public void close() {
        RecipeCalls.await(releaseAsync(), Duration.ofSeconds(30));
    }

    @Override
    public String toString() {
        return "Lease[" + nodePath + "]";
    }
}
