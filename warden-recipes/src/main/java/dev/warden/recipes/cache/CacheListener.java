package dev.warden.recipes.cache;

/** Hears a cache's changes, one at a time, on the client's completion executor; must not block. */
@FunctionalInterface
public interface CacheListener {
    void cacheChanged(CacheEvent event);
}
