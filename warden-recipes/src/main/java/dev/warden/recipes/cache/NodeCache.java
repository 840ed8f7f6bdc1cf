package dev.warden.recipes.cache;

import dev.warden.client.WardenClient;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A local copy of one node (present or absent), kept in step through a persistent watch on it;
 * the behaviour is that of a {@link TreeCache} of depth 0.
 */
public final class NodeCache implements AutoCloseable {
    private final String path;
    private final TreeCache cache;

    public NodeCache(WardenClient client, String path) {
        this.path = path;
        this.cache = new TreeCache(client, path, 0);
    }

    public void addListener(CacheListener listener) {
        cache.addListener(listener);
    }

    public CompletableFuture<Void> start() {
        return cache.start();
    }

    public NodeCache start(Duration timeout) {
        cache.start(timeout);
        return this;
    }

    /** The node as last read, or empty while it does not exist. */
    public Optional<CachedNode> current() {
        return cache.get(path);
    }

    @Override
    public void close() {
        cache.close();
    }
}
