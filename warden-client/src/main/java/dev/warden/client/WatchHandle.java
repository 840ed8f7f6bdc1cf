package dev.warden.client;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * A persistent or recursive watch added with {@link WardenClient#addWatch}. Closing it stops
 * deliveries at once; the server-side watch is removed when the last local watcher of that
 * path and mode goes. It survives reconnects (re-registered with setWatches2).
 */
public final class WatchHandle implements AutoCloseable {
    private final String path;
    private final WatchMode mode;
    private final Supplier<CompletableFuture<Void>> remover;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final CompletableFuture<Void> removal = new CompletableFuture<>();

    WatchHandle(String path, WatchMode mode, Supplier<CompletableFuture<Void>> remover) {
        this.path = path;
        this.mode = mode;
        this.remover = remover;
    }

    public String path() {
        return path;
    }

    public WatchMode mode() {
        return mode;
    }

    /** Stops the watch; the future completes when the server has dropped it (if it had to). */
    public CompletableFuture<Void> closeAsync() {
        if (closed.compareAndSet(false, true)) {
            remover.get().whenComplete((ok, error) -> {
                if (error == null) {
                    removal.complete(null);
                } else {
                    removal.completeExceptionally(error);
                }
            });
        }
        return removal;
    }

    /** Stops deliveries immediately and removes the server-side watch in the background. */
    @Override
    public void close() {
        closeAsync();
    }
}
