package dev.warden.recipes.config;

import dev.warden.client.ConnectionState;
import dev.warden.client.WardenClient;
import dev.warden.client.WardenException;
import dev.warden.client.WatchEvent;
import dev.warden.client.WatchHandle;
import dev.warden.client.WatchMode;
import dev.warden.protocol.CreateMode;
import dev.warden.protocol.Perms;
import dev.warden.recipes.support.EnsurePath;
import dev.warden.recipes.support.Failures;
import dev.warden.recipes.support.SequenceSuffix;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Configuration changes kept as persistent sequential children of one node, for when every
 * change must be seen: a follower is given each change exactly once, in sequence order, even
 * if changes were written while it was away. Changes removed by {@link #trimBefore} before a
 * follower read them are skipped, which the follower sees as a jump in
 * {@link Change#sequence()}.
 *
 * <p>Connection: on SUSPENDED delivery pauses; on RECONNECTED the follower lists the children
 * again and catches up. On LOST or CLOSED it stops; {@link #lastSequence()} says where it was,
 * so a follower on a new session can resume with {@code afterSequence = lastSequence()}.
 */
public final class ConfigChangeLog<T> implements AutoCloseable {
    private static final String PREFIX = "change-";

    /** One change: its position in the log and its value. */
    public record Change<T>(long sequence, T value) {
    }

    /** Receives changes on the client's completion executor, one at a time. */
    @FunctionalInterface
    public interface ChangeListener<T> {
        void applied(Change<T> change);

        /** A change the codec could not read; it counts as delivered. */
        default void decodeFailed(long sequence, RuntimeException failure) {
        }
    }

    private final WardenClient client;
    private final String path;
    private final ConfigCodec<T> codec;
    private final ChangeListener<T> listener;
    private volatile long lastSequence;
    private boolean catchingUp;
    private boolean changedMeanwhile;
    private volatile boolean stopped;
    private volatile WatchHandle watch;

    private ConfigChangeLog(WardenClient client, String path, ConfigCodec<T> codec, long afterSequence,
                            ChangeListener<T> listener) {
        this.client = client;
        this.path = path;
        this.codec = codec;
        this.lastSequence = afterSequence;
        this.listener = listener;
    }

    /** Appends a change; completes with its sequence. Safe to use across connection loss. */
    public static <T> CompletableFuture<Long> append(WardenClient client, String path, ConfigCodec<T> codec, T value) {
        byte[] data = codec.encode(value);
        return EnsurePath.exists(client, path)
                .thenCompose(ignored -> client.createProtected(EnsurePath.child(path, PREFIX), data,
                        Perms.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT_SEQUENTIAL))
                .thenApply(created -> SequenceSuffix.of(created.path()));
    }

    /**
     * Follows the log from the first change after {@code afterSequence} (-1 for all). Completes
     * once the changes present now have been delivered.
     */
    public static <T> CompletableFuture<ConfigChangeLog<T>> follow(WardenClient client, String path, ConfigCodec<T> codec,
                                                                   long afterSequence, ChangeListener<T> listener) {
        ConfigChangeLog<T> log = new ConfigChangeLog<>(client, path, codec, afterSequence, listener);
        client.addStateListener(log::onState);
        return EnsurePath.exists(client, path)
                .thenCompose(ignored -> client.addWatch(path, WatchMode.PERSISTENT, log::onEvent))
                .thenCompose(handle -> {
                    log.watch = handle;
                    return log.catchUp();
                })
                .thenApply(ignored -> log);
    }

    /** Deletes the changes with a sequence below {@code sequence}; completes with how many. */
    public static CompletableFuture<Integer> trimBefore(WardenClient client, String path, long sequence) {
        return client.getChildren(path).thenCompose(children -> {
            List<String> old = children.stream()
                    .filter(name -> name.contains(PREFIX) && SequenceSuffix.has(name) && SequenceSuffix.of(name) < sequence)
                    .toList();
            CompletableFuture<?>[] deletes = old.stream()
                    .map(name -> client.delete(EnsurePath.child(path, name)).exceptionally(failure -> {
                        if (Failures.is(failure, WardenException.NoNodeException.class)) {
                            return null;
                        }
                        throw new IllegalStateException(Failures.cause(failure));
                    }))
                    .toArray(CompletableFuture[]::new);
            return CompletableFuture.allOf(deletes).thenApply(ignored -> old.size());
        });
    }

    /** The sequence of the last change delivered (or the starting point). */
    public long lastSequence() {
        return lastSequence;
    }

    private void onEvent(WatchEvent event) {
        if (event.kind() == WatchEvent.Kind.NODE_CHILDREN_CHANGED) {
            catchUp();
        }
    }

    private void onState(ConnectionState state) {
        if (state == ConnectionState.RECONNECTED) {
            catchUp();
        } else if (state.isTerminal()) {
            stopped = true;
        }
    }

    /** One catch-up at a time; a change noticed during one triggers another after it. */
    private CompletableFuture<Void> catchUp() {
        synchronized (this) {
            if (stopped) {
                return CompletableFuture.completedFuture(null);
            }
            if (catchingUp) {
                changedMeanwhile = true;
                return CompletableFuture.completedFuture(null);
            }
            catchingUp = true;
            changedMeanwhile = false;
        }
        return client.getChildren(path)
                .thenCompose(this::deliverNewer)
                .handle((ignored, failure) -> {
                    boolean again;
                    synchronized (this) {
                        catchingUp = false;
                        again = changedMeanwhile;
                    }
                    // a failed round (connection loss) is retried by the RECONNECTED state change
                    return again && failure == null ? catchUp() : CompletableFuture.<Void>completedFuture(null);
                })
                .thenCompose(next -> next);
    }

    private CompletableFuture<Void> deliverNewer(List<String> children) {
        List<String> newer = children.stream()
                .filter(name -> name.contains(PREFIX) && SequenceSuffix.has(name))
                .filter(name -> SequenceSuffix.of(name) > lastSequence)
                .sorted(Comparator.comparingLong(SequenceSuffix::of))
                .toList();
        CompletableFuture<Void> chain = CompletableFuture.completedFuture(null);
        for (String name : newer) {
            chain = chain.thenCompose(ignored -> deliverOne(name));
        }
        return chain;
    }

    private CompletableFuture<Void> deliverOne(String name) {
        long sequence = SequenceSuffix.of(name);
        return client.getData(EnsurePath.child(path, name)).handle((read, failure) -> {
            if (failure != null && !Failures.is(failure, WardenException.NoNodeException.class)) {
                throw new IllegalStateException(Failures.cause(failure));
            }
            if (stopped || sequence <= lastSequence) {
                return null;
            }
            lastSequence = sequence;
            if (failure != null) {
                return null; // trimmed before we read it: a gap the listener sees in the sequence
            }
            T value;
            try {
                value = codec.decode(read.data());
            } catch (RuntimeException e) {
                listener.decodeFailed(sequence, e);
                return null;
            }
            listener.applied(new Change<>(sequence, value));
            return null;
        });
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
