package dev.warden.bench.load;

import dev.warden.protocol.ErrorCode;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/** Creates what a workload expects to find before it starts. */
final class LoadSetup {
    /** Creates in flight while preparing keys: enough to be quick, few enough to be gentle. */
    private static final int SETUP_IN_FLIGHT = 64;
    private static final long SETUP_TIMEOUT_MS = 120_000;

    private LoadSetup() {
    }

    static byte[] value(int sizeBytes) {
        byte[] value = new byte[sizeBytes];
        for (int i = 0; i < sizeBytes; i++) {
            value[i] = (byte) ('a' + i % 26);
        }
        return value;
    }

    static String[] keyPaths(LoadSpec spec) {
        String[] keys = new String[spec.keyCount()];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = spec.workloadRoot() + "/k-" + i;
        }
        return keys;
    }

    static String fanoutNode(LoadSpec spec) {
        return spec.workloadRoot() + "/watched";
    }

    /** Creates the root, the workload's node and, as the workload needs, its keys or watched node. */
    static void prepare(LoadClient client, LoadSpec spec) throws IOException, InterruptedException {
        String[] parts = spec.workloadRoot().substring(1).split("/");
        StringBuilder path = new StringBuilder();
        for (String part : parts) {
            path.append('/').append(part);
            createIfAbsent(client, path.toString(), new byte[0]);
        }
        if (spec.workload().usesKeys()) {
            createKeys(client, keyPaths(spec), value(spec.valueSizeBytes()));
        } else if (spec.workload() == Workload.FANOUT) {
            createIfAbsent(client, fanoutNode(spec), value(spec.valueSizeBytes()));
        }
    }

    private static void createIfAbsent(LoadClient client, String path, byte[] data)
            throws IOException, InterruptedException {
        CompletableFuture<Integer> result = new CompletableFuture<>();
        client.create(path, data, false, (rc, actual) -> result.complete(rc));
        int rc = await(result);
        if (rc != 0 && rc != ErrorCode.NODE_EXISTS.code()) {
            throw new IOException("cannot create " + path + ": " + describe(rc));
        }
    }

    /** Pipelined creates, at most {@link #SETUP_IN_FLIGHT} at a time; existing keys are kept. */
    private static void createKeys(LoadClient client, String[] keys, byte[] data)
            throws IOException, InterruptedException {
        Semaphore window = new Semaphore(SETUP_IN_FLIGHT);
        AtomicReference<String> failure = new AtomicReference<>();
        for (String key : keys) {
            if (!window.tryAcquire(SETUP_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                throw new IOException("creating keys timed out");
            }
            client.create(key, data, false, (rc, actual) -> {
                if (rc != 0 && rc != ErrorCode.NODE_EXISTS.code()) {
                    failure.compareAndSet(null, "cannot create " + key + ": " + describe(rc));
                }
                window.release();
            });
        }
        if (!window.tryAcquire(SETUP_IN_FLIGHT, SETUP_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
            throw new IOException("creating keys timed out");
        }
        if (failure.get() != null) {
            throw new IOException(failure.get());
        }
    }

    private static int await(CompletableFuture<Integer> result) throws IOException, InterruptedException {
        try {
            return result.get(SETUP_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException("setup request failed: " + e, e);
        }
    }

    static String describe(int rc) {
        ErrorCode code = ErrorCode.of(rc);
        return code == null ? "error " + rc : code.name() + " (" + rc + ")";
    }
}
