package dev.warden.bench.scale;

import dev.warden.bench.load.LoadClient;
import dev.warden.protocol.ErrorCode;
import java.io.IOException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongFunction;

/**
 * Creates many znodes through one session with many creates in flight: one session, because its
 * FIFO order applies a parent's create before its children's without waiting for it.
 */
final class TreeBuilder {
    static final int IN_FLIGHT = 1000;
    private static final long DRAIN_TIMEOUT_MS = 600_000;

    private TreeBuilder() {
    }

    /**
     * Creates the persistent znodes {@code paths(i)} for {@code from <= i < to}, in that order, each
     * with {@code value}; returns the nanoseconds from the first request to the last reply.
     */
    static long create(LoadClient client, long from, long to, LongFunction<String> paths, byte[] value)
            throws IOException, InterruptedException {
        Semaphore inFlight = new Semaphore(IN_FLIGHT);
        AtomicReference<String> firstFailure = new AtomicReference<>();
        AtomicInteger failures = new AtomicInteger();
        long startNs = System.nanoTime();
        for (long i = from; i < to && failures.get() == 0; i++) {
            String path = paths.apply(i);
            inFlight.acquire();
            client.create(path, value, false, (rc, actual) -> {
                if (rc != 0 && failures.getAndIncrement() == 0) {
                    ErrorCode code = ErrorCode.of(rc);
                    firstFailure.set("create " + path + ": " + (code == null ? "error " + rc : code.name()));
                }
                inFlight.release();
            });
        }
        if (!inFlight.tryAcquire(IN_FLIGHT, DRAIN_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
            throw new IOException("creates still unanswered after " + DRAIN_TIMEOUT_MS + " ms");
        }
        long elapsedNs = System.nanoTime() - startNs;
        if (failures.get() > 0) {
            throw new IOException(firstFailure.get());
        }
        return elapsedNs;
    }
}
