package dev.warden.bench.load;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * Runs one {@link LoadSpec}: connects the sessions, prepares the data, runs the warm-up, then
 * measures, printing a progress line every second. Returns the measured figures.
 */
public final class LoadRunner {
    private static final long DRAIN_TIMEOUT_MS = 10_000;
    /** Sessions are connected and closed a few at a time: quicker than one by one, gentler than all at once. */
    private static final int CONNECT_PARALLELISM = 8;

    private final PrintWriter progress;
    private final ServerCpuMeter serverCpu;

    /** @param progress where the per-second progress lines go */
    public LoadRunner(PrintWriter progress) {
        this(progress, ServerCpuMeter.NONE);
    }

    /**
     * @param progress  where the per-second progress lines go
     * @param serverCpu the servers' CPU time, read at both ends of the measured phase, so the
     *                  result carries their CPU per operation
     */
    public LoadRunner(PrintWriter progress, ServerCpuMeter serverCpu) {
        this.progress = progress;
        this.serverCpu = serverCpu;
    }

    public LoadResult run(LoadSpec spec) throws IOException, InterruptedException {
        ListeningCheck.requireOneListening(spec.connectString());
        List<LoadClient> clients = connectAll(spec, sessionsNeeded(spec));
        try {
            LoadSetup.prepare(clients.get(0), spec);
            LoadRecorder recorder = new LoadRecorder();
            LoadDriver driver = driver(spec, clients, recorder);
            driver.start();
            try {
                return measure(spec.workload().cliName(), spec.warmupSeconds(), spec.measureSeconds(), recorder);
            } finally {
                driver.stopAndDrain(DRAIN_TIMEOUT_MS);
            }
        } finally {
            closeAll(clients);
        }
    }

    /**
     * The warm-up, then the measured phase, of a load already running into {@code recorder}; for
     * the workloads here and for drivers of other systems (etcd) measured the same way.
     */
    public LoadResult measure(String workload, int warmupSeconds, int measureSeconds, LoadRecorder recorder)
            throws InterruptedException {
        runPhase("warm-up", warmupSeconds, recorder, null);
        recorder.takeInterval(); // what the warm-up recorded is dropped here
        recorder.startMeasuring();
        Histogram measured = new Histogram(LoadRecorder.HIGHEST_LATENCY_US, 3);
        long cpuBeforeNs = serverCpu.cpuNs();
        long measuredMs = runPhase("measure", measureSeconds, recorder, measured);
        long cpuAfterNs = serverCpu.cpuNs();
        recorder.stopMeasuring();
        long serverCpuNs = cpuBeforeNs < 0 || cpuAfterNs < 0 ? -1 : cpuAfterNs - cpuBeforeNs;
        return LoadResult.of(workload, measured, measuredMs, recorder.errorsByCode(), serverCpuNs);
    }

    /** Runs one phase second by second; adds its latencies to {@code total} unless that is null. */
    private long runPhase(String name, int seconds, LoadRecorder recorder, Histogram total)
            throws InterruptedException {
        long startNs = System.nanoTime();
        long lastNs = startNs;
        for (int second = 1; second <= seconds; second++) {
            long dueNs = startNs + TimeUnit.SECONDS.toNanos(second);
            long sleepNs = dueNs - System.nanoTime();
            if (sleepNs > 0) {
                TimeUnit.NANOSECONDS.sleep(sleepNs);
            }
            Histogram interval = recorder.takeInterval();
            long nowNs = System.nanoTime();
            if (total != null) {
                total.add(interval);
            }
            printProgress(name, second, seconds, interval, nowNs - lastNs, recorder.takeIntervalErrors());
            lastNs = nowNs;
        }
        return TimeUnit.NANOSECONDS.toMillis(lastNs - startNs);
    }

    private void printProgress(String phase, int second, int seconds, Histogram interval, long elapsedNs,
                               long errors) {
        double opsPerSecond = interval.getTotalCount() * 1e9 / Math.max(1, elapsedNs);
        progress.printf(Locale.ROOT, "[%-7s %3d/%d s] %,10.0f ops/s  p50 %8.3f ms  p99 %8.3f ms  max %8.3f ms  errors %d%n",
                phase, second, seconds, opsPerSecond, interval.getValueAtPercentile(50) / 1000.0,
                interval.getValueAtPercentile(99) / 1000.0, interval.getMaxValue() / 1000.0, errors);
        progress.flush();
    }

    /**
     * Connections the run holds open at once from this address, library clients and sockets
     * spoken on the wire alike: what a server's maxClientCnxns counts.
     */
    static int connectionsOpened(LoadSpec spec) {
        return switch (spec.workload()) {
            case LOCK -> spec.lockClients();
            case FANOUT -> spec.watchers() + 1;
            default -> spec.sessions();
        };
    }

    /**
     * Sessions to open before starting; the storm opens its own, so it needs one for setup only,
     * and in plaintext the fan-out's watchers are spoken on the wire, so it needs only the writer.
     */
    static int sessionsNeeded(LoadSpec spec) {
        return switch (spec.workload()) {
            case LOCK -> spec.lockClients();
            case FANOUT -> spec.tls().enabled() ? spec.watchers() + 1 : 1;
            case SESSION_STORM -> 1;
            default -> spec.sessions();
        };
    }

    private static LoadDriver driver(LoadSpec spec, List<LoadClient> clients, LoadRecorder recorder)
            throws IOException, InterruptedException {
        return switch (spec.workload()) {
            case LOCK -> new LockDriver(spec, clients, recorder);
            case FANOUT -> spec.tls().enabled() ? new FanoutDriver(spec, clients, recorder)
                    : wireFanout(spec, clients.get(0), recorder);
            case SESSION_STORM -> new SessionStormDriver(spec, recorder);
            default -> new RequestDriver(spec, clients, recorder);
        };
    }

    private static LoadDriver wireFanout(LoadSpec spec, LoadClient writer, LoadRecorder recorder)
            throws IOException, InterruptedException {
        WireFanoutDriver driver = new WireFanoutDriver(spec, writer, recorder);
        driver.connectWatchers();
        return driver;
    }

    private static List<LoadClient> connectAll(LoadSpec spec, int count) throws IOException, InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(count, CONNECT_PARALLELISM));
        List<Future<LoadClient>> connecting = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                int sessionIndex = i;
                connecting.add(pool.submit(() -> spec.client().connectPlaced(spec.connectString(), sessionIndex,
                        spec.sessionTimeoutMs(), spec.maxFrameBytes(), spec.tls())));
            }
            List<LoadClient> clients = new ArrayList<>();
            IOException failure = null;
            for (Future<LoadClient> future : connecting) {
                try {
                    clients.add(future.get());
                } catch (ExecutionException e) {
                    failure = failure != null ? failure
                            : new IOException("cannot connect to " + spec.connectString() + ": " + e.getCause(), e);
                }
            }
            if (failure != null) {
                closeAll(clients);
                throw failure;
            }
            return clients;
        } finally {
            pool.shutdownNow();
        }
    }

    private static void closeAll(List<LoadClient> clients) throws InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(clients.size(), CONNECT_PARALLELISM)));
        clients.forEach(client -> pool.execute(client::close));
        pool.shutdown();
        pool.awaitTermination(1, TimeUnit.MINUTES);
    }
}
