package dev.warden.recipes.discovery;

import dev.warden.client.WardenClient;
import dev.warden.recipes.cache.CacheListener;
import dev.warden.recipes.cache.CachedNode;
import dev.warden.recipes.cache.TreeCache;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * One service's instances kept locally by a {@link TreeCache} of depth 1 (so the connection
 * behaviour is the cache's: SUSPENDED may be stale, RECONNECTED reloads). Instances that do not
 * decode are left out.
 */
public final class ServiceCache implements AutoCloseable {
    private final String name;
    private final String servicePath;
    private final TreeCache cache;

    ServiceCache(WardenClient client, String name, String servicePath) {
        this.name = name;
        this.servicePath = servicePath;
        this.cache = new TreeCache(client, servicePath, 1);
    }

    public void addListener(CacheListener listener) {
        cache.addListener(listener);
    }

    public CompletableFuture<Void> start() {
        return cache.start();
    }

    public ServiceCache start(Duration timeout) {
        cache.start(timeout);
        return this;
    }

    /** The instances in the local view, by id. */
    public List<ServiceInstance> instances() {
        List<ServiceInstance> out = new ArrayList<>();
        for (Map.Entry<String, CachedNode> entry : cache.snapshot().entrySet()) {
            if (entry.getKey().equals(servicePath)) {
                continue;
            }
            String id = entry.getKey().substring(servicePath.length() + 1);
            try {
                out.add(ServiceInstance.decode(name, id, entry.getValue().data()));
            } catch (RuntimeException undecodable) {
                // not an instance this recipe wrote
            }
        }
        return out;
    }

    /** A provider choosing among this cache's instances. */
    public ServiceProvider provider(ServiceProvider.Strategy strategy) {
        return new ServiceProvider(this, strategy);
    }

    @Override
    public void close() {
        cache.close();
    }
}
