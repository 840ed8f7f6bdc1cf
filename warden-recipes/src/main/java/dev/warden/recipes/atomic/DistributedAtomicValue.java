package dev.warden.recipes.atomic;

import dev.warden.client.DataAndStat;
import dev.warden.client.WardenClient;
import dev.warden.client.WardenException;
import dev.warden.protocol.CreateMode;
import dev.warden.recipes.support.EnsurePath;
import dev.warden.recipes.support.Failures;
import dev.warden.recipes.support.RecipeCalls;
import dev.warden.recipes.support.RecipePaths;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.UnaryOperator;

/**
 * A value in one node changed only by compare-and-set: each write carries the node's version
 * as read, so two writers can never both succeed from the same value. Contended updates read
 * again and retry, up to {@code maxAttempts}.
 *
 * <p><b>Lost replies.</b> A versioned write retried by the client after a connection loss
 * reports BADVERSION when the first send was applied, which a plain CAS loop would take for
 * contention and apply again (an increment counting twice). The client marks such an answer
 * ({@code afterResend()}), and the node keeps the ids of its last 32 writes (see
 * {@link VersionedValue}): after a resent BADVERSION or a connection loss the writer reads the
 * node and looks up which write holds the version it aimed at. Only if more than 32 writes
 * followed before it could look does it fail with {@link AtomicOutcomeUnknownException} rather
 * than guess. A BADVERSION to a first send is plain
 * contention: read again and retry.
 *
 * <p><b>Connection.</b> Nothing is held between operations, so SUSPENDED only delays them
 * (the client queues requests until it reconnects); LOST fails them.
 */
public final class DistributedAtomicValue {
    /** Attempts of a contended update before it reports {@code succeeded=false}. */
    public static final int DEFAULT_MAX_ATTEMPTS = 1_000;

    private final WardenClient client;
    private final String path;
    private final int maxAttempts;

    public DistributedAtomicValue(WardenClient client, String path) {
        this(client, path, DEFAULT_MAX_ATTEMPTS);
    }

    public DistributedAtomicValue(WardenClient client, String path, int maxAttempts) {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1, not " + maxAttempts);
        }
        this.client = client;
        this.path = RecipePaths.checkDirectory(path);
        this.maxAttempts = maxAttempts;
    }

    public String path() {
        return path;
    }

    /** The current value, or empty if the node does not exist. */
    public CompletableFuture<Optional<byte[]>> get() {
        return read().thenApply(current -> current.map(c -> c.value.value()));
    }

    /** Blocking {@link #get()}. */
    public Optional<byte[]> get(Duration timeout) {
        return RecipeCalls.await(get(), timeout);
    }

    /**
     * Sets {@code newValue} if the current value equals {@code expected} ({@code null}: the node
     * does not exist). One attempt: {@code succeeded=false} if the value differs.
     */
    public CompletableFuture<AtomicResult<byte[]>> compareAndSet(byte[] expected, byte[] newValue) {
        return attempt(current -> Arrays.equals(current, expected) ? newValue : null, 1, 1);
    }

    /** Sets the value whatever it is (read, then a versioned write, retried under contention). */
    public CompletableFuture<AtomicResult<byte[]>> set(byte[] newValue) {
        return update(ignored -> newValue);
    }

    /**
     * Replaces the value by {@code change.apply(current)} ({@code current} null when the node
     * does not exist; a null result leaves it alone and reports {@code succeeded=false}),
     * retrying with a fresh read whenever another writer got there first.
     */
    public CompletableFuture<AtomicResult<byte[]>> update(UnaryOperator<byte[]> change) {
        return attempt(change, 1, maxAttempts);
    }

    private record Current(VersionedValue value, int version) {
    }

    private CompletableFuture<Optional<Current>> read() {
        return client.getData(path).handle((read, failure) -> {
            if (failure == null) {
                return Optional.of(new Current(VersionedValue.decode(read.data()), read.stat().version()));
            }
            if (Failures.is(failure, WardenException.NoNodeException.class)) {
                return Optional.<Current>empty();
            }
            throw new java.util.concurrent.CompletionException(Failures.cause(failure));
        });
    }

    private CompletableFuture<AtomicResult<byte[]>> attempt(UnaryOperator<byte[]> change, int attempt, int limit) {
        return read().thenCompose(current -> {
            byte[] before = current.map(c -> c.value.value()).orElse(null);
            byte[] after = change.apply(before == null ? null : before.clone());
            if (after == null) {
                return CompletableFuture.completedFuture(new AtomicResult<>(false, before, before, attempt));
            }
            UUID writeId = UUID.randomUUID();
            byte[] data = current.map(c -> c.value).orElse(new VersionedValue(java.util.List.of(), new byte[0]))
                    .next(writeId, after).encode();
            CompletableFuture<Void> write = current.isPresent()
                    ? client.setData(path, data, current.get().version).thenApply(stat -> null)
                    : create(data);
            return write.handle((ok, failure) -> {
                if (failure == null) {
                    return CompletableFuture.completedFuture(new AtomicResult<>(true, before, after, attempt));
                }
                Throwable cause = Failures.cause(failure);
                boolean contention = cause instanceof WardenException.NodeExistsException
                        || (cause instanceof WardenException.BadVersionException bad && !bad.afterResend());
                boolean ambiguous = RecipeCalls.isConnectionLoss(cause)
                        || (cause instanceof WardenException.BadVersionException bad && bad.afterResend());
                if (!contention && !ambiguous) {
                    return CompletableFuture.<AtomicResult<byte[]>>failedFuture(cause);
                }
                int expectedVersion = current.map(c -> c.version + 1).orElse(0);
                CompletableFuture<Boolean> applied = contention ? CompletableFuture.completedFuture(false)
                        : wasApplied(writeId, expectedVersion);
                return applied.thenCompose(ours -> {
                    if (ours) {
                        return CompletableFuture.completedFuture(new AtomicResult<>(true, before, after, attempt));
                    }
                    if (attempt >= limit) {
                        return read().thenApply(now -> {
                            byte[] value = now.map(c -> c.value.value()).orElse(null);
                            return new AtomicResult<>(false, value, value, attempt);
                        });
                    }
                    return attempt(change, attempt + 1, limit);
                });
            }).thenCompose(next -> next);
        });
    }

    private CompletableFuture<Void> create(byte[] data) {
        return client.create(path, data, CreateMode.PERSISTENT).handle((created, failure) -> {
            if (Failures.is(failure, WardenException.NoNodeException.class)) {
                return EnsurePath.exists(client, EnsurePath.parentOf(path))
                        .thenCompose(ignored -> client.create(path, data, CreateMode.PERSISTENT)).thenApply(p -> (Void) null);
            }
            return failure == null ? CompletableFuture.<Void>completedFuture(null)
                    : CompletableFuture.<Void>failedFuture(Failures.cause(failure));
        }).thenCompose(next -> next);
    }

    /**
     * After an ambiguous answer: the node's history names the write at each recent version, so
     * ours was applied exactly if the write at the version it aimed at is ours. Only when that
     * version has left the history (more writes followed than it keeps) can we not tell.
     */
    private CompletableFuture<Boolean> wasApplied(UUID writeId, int targetVersion) {
        return read().thenApply(now -> {
            if (now.isEmpty()) {
                return false;
            }
            Current current = now.get();
            int index = current.version - targetVersion;
            if (index < 0) {
                return false;   // the node has not reached that version: not applied
            }
            List<UUID> writes = current.value.recentWrites();
            if (index < writes.size()) {
                return writes.get(index).equals(writeId);
            }
            throw new AtomicOutcomeUnknownException(path);
        });
    }
}
