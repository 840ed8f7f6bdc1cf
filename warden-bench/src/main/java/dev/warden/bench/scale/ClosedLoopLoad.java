package dev.warden.bench.scale;

import dev.warden.bench.load.ClientKind;
import dev.warden.bench.load.LoadClient;
import dev.warden.protocol.ErrorCode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * A closed loop of one kind of request over open sessions, for the dimensions whose request the
 * load generator's workloads do not have (getChildren of one node, reads and writes spread over a
 * whole tree): every session keeps {@code inFlightPerSession} requests outstanding, each issuing
 * the next from the previous one's completion; warm-up, then the measured window.
 */
final class ClosedLoopLoad {
    /** Anything slower is clamped, so one stuck request cannot break the histogram. */
    private static final long HIGHEST_LATENCY_US = TimeUnit.MINUTES.toMicros(1);
    private static final long DRAIN_TIMEOUT_MS = 60_000;

    /** Issues one request on {@code client}; {@code done} gets its error code. */
    @FunctionalInterface
    interface Operation {
        void issue(LoadClient client, LoadClient.Done done);
    }

    /** The measured window: completed requests per second and their latency percentiles. */
    record Result(double opsPerSecond, long p50Us, long p99Us) {
    }

    private final Recorder latencies = new Recorder(HIGHEST_LATENCY_US, 3);
    private final AtomicLong failures = new AtomicLong();
    private final AtomicInteger firstFailureCode = new AtomicInteger();
    private final AtomicInteger outstanding = new AtomicInteger();
    private final Operation operation;
    private volatile boolean running = true;

    private ClosedLoopLoad(Operation operation) {
        this.operation = operation;
    }

    /**
     * Opens {@code sessions} sessions (the Apache client, as the other dimensions' load), runs
     * {@code operation} on them as {@link #run} does, and closes them.
     */
    static Result runOnNewSessions(String connectString, int sessions, int inFlightPerSession, int maxFrameBytes,
                                   Operation operation, int warmupSeconds, int measureSeconds)
            throws IOException, InterruptedException {
        List<LoadClient> clients = new ArrayList<>();
        try {
            for (int i = 0; i < sessions; i++) {
                clients.add(ClientKind.APACHE.connect(connectString, ScaleRunner.SESSION_TIMEOUT_MS, maxFrameBytes));
            }
            return run(clients, inFlightPerSession, operation, warmupSeconds, measureSeconds);
        } finally {
            clients.forEach(LoadClient::close);
        }
    }

    /** Runs {@code operation} on every client for the warm-up, then for the measured window; failures are an error. */
    static Result run(List<LoadClient> clients, int inFlightPerSession, Operation operation, int warmupSeconds,
                      int measureSeconds) throws IOException, InterruptedException {
        ClosedLoopLoad load = new ClosedLoopLoad(operation);
        for (LoadClient client : clients) {
            for (int slot = 0; slot < inFlightPerSession; slot++) {
                load.issue(client);
            }
        }
        Thread.sleep(TimeUnit.SECONDS.toMillis(warmupSeconds));
        load.latencies.getIntervalHistogram(); // the warm-up's latencies are dropped
        long startNs = System.nanoTime();
        Thread.sleep(TimeUnit.SECONDS.toMillis(measureSeconds));
        Histogram measured = load.latencies.getIntervalHistogram();
        long measuredNs = System.nanoTime() - startNs;
        load.stopAndDrain();
        if (load.failures.get() > 0) {
            ErrorCode code = ErrorCode.of(load.firstFailureCode.get());
            throw new IOException(load.failures.get() + " requests failed, the first with "
                    + (code == null ? "error " + load.firstFailureCode.get() : code.name()));
        }
        return new Result(measured.getTotalCount() * 1e9 / measuredNs, measured.getValueAtPercentile(50),
                measured.getValueAtPercentile(99));
    }

    private void issue(LoadClient client) {
        if (!running) {
            return;
        }
        outstanding.incrementAndGet();
        long startNs = System.nanoTime();
        operation.issue(client, rc -> {
            if (rc == 0) {
                long latencyUs = TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - startNs);
                latencies.recordValue(Math.max(0, Math.min(latencyUs, HIGHEST_LATENCY_US)));
            } else if (failures.getAndIncrement() == 0) {
                firstFailureCode.set(rc);
            }
            outstanding.decrementAndGet();
            issue(client);
        });
    }

    private void stopAndDrain() throws InterruptedException, IOException {
        running = false;
        long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DRAIN_TIMEOUT_MS);
        while (outstanding.get() > 0) {
            if (System.nanoTime() > deadlineNs) {
                throw new IOException(outstanding.get() + " requests unanswered " + DRAIN_TIMEOUT_MS
                        + " ms after the measured window");
            }
            Thread.sleep(5);
        }
    }
}
