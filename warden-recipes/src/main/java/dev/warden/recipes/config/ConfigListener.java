package dev.warden.recipes.config;

import dev.warden.client.ConnectionState;

/**
 * Told about configuration changes, on the client's completion executor, one call at a time.
 * Must not block on the same client's futures.
 */
@FunctionalInterface
public interface ConfigListener<T> {
    void changed(ConfigSnapshot<T> snapshot);

    /** Node data the codec could not read; the last good value stays current. */
    default void decodeFailed(int version, RuntimeException failure) {
    }

    /**
     * The client's connection state. While SUSPENDED the current value may be stale; after
     * LOST or CLOSED no more changes arrive.
     */
    default void stateChanged(ConnectionState state) {
    }
}
