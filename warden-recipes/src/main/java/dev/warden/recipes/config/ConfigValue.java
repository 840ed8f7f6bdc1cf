package dev.warden.recipes.config;

import dev.warden.client.ConnectionState;
import dev.warden.client.DataAndStat;
import dev.warden.client.WardenClient;
import dev.warden.client.WardenException;
import dev.warden.client.WatchHandle;
import dev.warden.client.WatchMode;
import dev.warden.protocol.CreateMode;
import dev.warden.protocol.Stat;
import dev.warden.recipes.support.EnsurePath;
import dev.warden.recipes.support.Failures;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A configuration value kept in one znode and followed through a persistent watch.
 *
 * <p>Guarantees, per listener: present values arrive with strictly increasing
 * {@link ConfigSnapshot#modifiedZxid()}, so none is delivered twice or out of order; a deletion
 * is reported once between two values. Values written faster than the client reads them can be
 * skipped (a watch tells that the node changed, the read returns the newest value); the data
 * version shows the gap. If every single change matters, use {@link ConfigChangeLog}.
 *
 * <p>Connection: on SUSPENDED nothing is delivered and {@link #current()} may be stale; on
 * RECONNECTED the node is read again and any newer value delivered. On LOST (session expired)
 * or CLOSED the value stops following; {@link #current()} keeps the last value seen.
 */
public final class ConfigValue<T> implements AutoCloseable {
    private final WardenClient client;
    private final String path;
    private final ConfigCodec<T> codec;
    private final List<ConfigListener<T>> listeners = new CopyOnWriteArrayList<>();
    private volatile ConfigSnapshot<T> current = ConfigSnapshot.absent();
    private long lastPresentZxid = -1;
    /** Null before the first read: the initial state is delivered whatever it is. */
    private Boolean lastSeenPresent;
    private volatile boolean stopped;
    private volatile WatchHandle watch;
    /** The last {@link #set} made; the next one starts when it is done. */
    private CompletableFuture<Stat> lastSet = CompletableFuture.completedFuture(null);

    private ConfigValue(WardenClient client, String path, ConfigCodec<T> codec) {
        this.client = client;
        this.path = path;
        this.codec = codec;
    }

    /**
     * Starts following {@code path} (which need not exist). Completes after the first read, with
     * {@code listener} already told the initial state.
     */
    public static <T> CompletableFuture<ConfigValue<T>> follow(WardenClient client, String path, ConfigCodec<T> codec,
                                                               ConfigListener<T> listener) {
        ConfigValue<T> config = new ConfigValue<>(client, path, codec);
        config.listeners.add(listener);
        client.addStateListener(config::onState);
        return client.addWatch(path, WatchMode.PERSISTENT, event -> config.refresh())
                .thenCompose(handle -> {
                    config.watch = handle;
                    return config.refresh();
                })
                .thenApply(ignored -> config);
    }

    /** Blocking form of {@link #follow}. */
    public static <T> ConfigValue<T> follow(WardenClient client, String path, ConfigCodec<T> codec,
                                            ConfigListener<T> listener, Duration timeout) {
        return client.blocking(timeout).await(follow(client, path, codec, listener));
    }

    /** The newest state seen. */
    public ConfigSnapshot<T> current() {
        return current;
    }

    /** Adds a listener for changes after this call (read {@link #current()} for the present). */
    public void addListener(ConfigListener<T> listener) {
        listeners.add(listener);
    }

    /**
     * Writes a value whatever the node's version, creating the node (and parents) if needed.
     * Calls on one {@code ConfigValue} take effect in the order they were made: each waits for
     * the one before it. Pipelined, a write that found the node missing would create it or write
     * it again only after later writes had landed, and the node would end on an older value.
     */
    public CompletableFuture<Stat> set(T value) {
        byte[] data = codec.encode(value);
        synchronized (this) {
            CompletableFuture<Stat> next = lastSet.handle((stat, failure) -> null)
                    .thenCompose(ignored -> write(client, path, data, -1));
            lastSet = next;
            return next;
        }
    }

    /** Writes a value only if the node's version is {@code expectedVersion}. */
    public CompletableFuture<Stat> compareAndSet(T value, int expectedVersion) {
        return client.setData(path, codec.encode(value), expectedVersion);
    }

    static CompletableFuture<Stat> write(WardenClient client, String path, byte[] data, int version) {
        return client.setData(path, data, version).exceptionallyCompose(failure -> {
            if (!(Failures.cause(failure) instanceof WardenException.NoNodeException) || version != -1) {
                return CompletableFuture.failedFuture(Failures.cause(failure));
            }
            return EnsurePath.exists(client, EnsurePath.parentOf(path))
                    .thenCompose(ignored -> client.create(path, data, CreateMode.PERSISTENT))
                    .thenCompose(created -> client.exists(path))
                    .thenApply(stat -> stat.orElseThrow(() -> new WardenException.NoNodeException(path, -1)))
                    .exceptionallyCompose(again -> Failures.cause(again) instanceof WardenException.NodeExistsException
                            ? client.setData(path, data, -1)
                            : CompletableFuture.failedFuture(Failures.cause(again)));
        });
    }

    private CompletableFuture<Void> refresh() {
        if (stopped) {
            return CompletableFuture.completedFuture(null);
        }
        // Replies of one session come back in request order, so each refresh sees a state at
        // least as new as the one before; deliver() still drops anything not newer.
        return client.getData(path).handle((read, failure) -> {
            if (failure == null) {
                deliver(read);
            } else if (Failures.cause(failure) instanceof WardenException.NoNodeException) {
                deliverAbsent();
            }
            // other failures (connection loss) are followed by a state change that refreshes again
            return null;
        });
    }

    private synchronized void deliver(DataAndStat read) {
        long zxid = read.stat().mzxid();
        // a value written before the last one delivered is old news, even after a deletion
        if (zxid <= lastPresentZxid) {
            return;
        }
        lastPresentZxid = zxid;
        lastSeenPresent = true;
        T value;
        try {
            value = codec.decode(read.data());
        } catch (RuntimeException e) {
            listeners.forEach(listener -> listener.decodeFailed(read.stat().version(), e));
            return;
        }
        ConfigSnapshot<T> snapshot = new ConfigSnapshot<>(Optional.of(value), read.stat().version(), zxid);
        current = snapshot;
        listeners.forEach(listener -> listener.changed(snapshot));
    }

    private synchronized void deliverAbsent() {
        if (Boolean.FALSE.equals(lastSeenPresent)) {
            return;
        }
        lastSeenPresent = false;
        ConfigSnapshot<T> snapshot = ConfigSnapshot.absent();
        current = snapshot;
        listeners.forEach(listener -> listener.changed(snapshot));
    }

    private void onState(ConnectionState state) {
        if (stopped) {
            return;
        }
        listeners.forEach(listener -> listener.stateChanged(state));
        if (state == ConnectionState.RECONNECTED) {
            refresh();
        } else if (state.isTerminal()) {
            stopped = true;
        }
    }

    /** Stops following; the client stays open. */
    @Override
    public void close() {
        stopped = true;
        WatchHandle handle = watch;
        if (handle != null) {
            handle.closeAsync();
        }
    }
}
