package dev.warden.recipes.atomic;

import dev.warden.client.WardenClient;
import dev.warden.recipes.support.RecipeCalls;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * A shared counter: a {@link DistributedAtomicValue} holding an 8-byte big-endian long. A node
 * that does not exist counts as 0. Every change is a compare-and-set retried under contention,
 * and a change whose reply was lost is recognised rather than applied twice, so N increments
 * from any number of clients add exactly N (or fail; they never count twice).
 */
public final class DistributedAtomicLong {
    private final DistributedAtomicValue value;

    public DistributedAtomicLong(WardenClient client, String path) {
        this.value = new DistributedAtomicValue(client, path);
    }

    public DistributedAtomicLong(WardenClient client, String path, int maxAttempts) {
        this.value = new DistributedAtomicValue(client, path, maxAttempts);
    }

    /** The current value (0 if the node does not exist). */
    public CompletableFuture<Long> get() {
        return value.get().thenApply(bytes -> bytes.map(DistributedAtomicLong::decode).orElse(0L));
    }

    public long get(Duration timeout) {
        return RecipeCalls.await(get(), timeout);
    }

    public CompletableFuture<AtomicResult<Long>> increment() {
        return add(1);
    }

    public CompletableFuture<AtomicResult<Long>> decrement() {
        return add(-1);
    }

    /** Adds {@code delta} (overflow wraps, as for {@code long}). */
    public CompletableFuture<AtomicResult<Long>> add(long delta) {
        return value.update(current -> encode(decodeOrZero(current) + delta)).thenApply(DistributedAtomicLong::asLongs);
    }

    /** Sets {@code newValue} if the counter is {@code expected} (a missing node counts as 0), else reports {@code succeeded=false}. */
    public CompletableFuture<AtomicResult<Long>> compareAndSet(long expected, long newValue) {
        return value.update(current -> decodeOrZero(current) == expected ? encode(newValue) : null)
                .thenApply(DistributedAtomicLong::asLongs);
    }

    /** Sets {@code newValue} whatever the counter is. */
    public CompletableFuture<AtomicResult<Long>> set(long newValue) {
        return value.set(encode(newValue)).thenApply(DistributedAtomicLong::asLongs);
    }

    private static AtomicResult<Long> asLongs(AtomicResult<byte[]> result) {
        return new AtomicResult<>(result.succeeded(), decodeOrZero(result.preValue()), decodeOrZero(result.postValue()),
                result.attempts());
    }

    static byte[] encode(long value) {
        return ByteBuffer.allocate(Long.BYTES).putLong(value).array();
    }

    private static long decodeOrZero(byte[] bytes) {
        return bytes == null ? 0 : decode(bytes);
    }

    static long decode(byte[] bytes) {
        if (bytes.length != Long.BYTES) {
            throw new IllegalStateException("a counter node holds 8 bytes, not " + bytes.length
                    + "; is this path used by something else?");
        }
        return ByteBuffer.wrap(bytes).getLong();
    }
}
