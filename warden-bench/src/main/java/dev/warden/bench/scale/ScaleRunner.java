package dev.warden.bench.scale;

import dev.warden.bench.compare.Deployment;
import dev.warden.bench.compare.DeploymentUnavailableException;
import dev.warden.bench.compare.JvmSettings;
import dev.warden.bench.compare.Topology;
import dev.warden.bench.load.ClientKind;
import dev.warden.bench.load.LoadClient;
import dev.warden.bench.load.LoadResult;
import dev.warden.bench.load.LoadRunner;
import dev.warden.bench.load.LoadSpec;
import dev.warden.bench.load.Workload;
import dev.warden.bench.report.ScaleReport;
import dev.warden.cli.cluster.Flavour;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * Measures each server standalone as one dimension grows: both servers' deployments up together
 * for the whole dimension, the order alternating from one point to the next, as in the comparison.
 */
public final class ScaleRunner {
    static final int SESSION_TIMEOUT_MS = 30_000;
    private static final int MAX_FRAME_BYTES = 4 << 20;
    private static final long WATCH_TIMEOUT_MS = 120_000;
    private static final String ROOT = "/warden-bench-scale";
    private static final String WATCHED = ROOT + "-watched";

    private final PrintWriter out;
    private final ZnodesLoad znodes = new ZnodesLoad();

    public ScaleRunner(PrintWriter out) {
        this.out = out;
    }

    public List<ScalePoint> run(ScaleOptions options) throws IOException, InterruptedException {
        List<ScalePoint> points = new ArrayList<>();
        for (ScaleDimension dimension : options.dimensions()) {
            points.addAll(dimension == ScaleDimension.MEMBERS ? runMembers(options) : runDimension(dimension, options));
        }
        return points;
    }

    private List<ScalePoint> runDimension(ScaleDimension dimension, ScaleOptions options)
            throws IOException, InterruptedException {
        Map<Flavour, Deployment> up = new EnumMap<>(Flavour.class);
        List<ScalePoint> points = new ArrayList<>();
        try {
            for (Flavour flavour : options.flavours()) {
                start(flavour, dimension, options, up);
            }
            List<Long> xs = options.points().get(dimension);
            for (int i = 0; i < xs.size(); i++) {
                List<Flavour> order = new ArrayList<>(options.flavours());
                if (i % 2 == 1) {
                    java.util.Collections.reverse(order);
                }
                for (Flavour flavour : order) {
                    points.add(measure(dimension, xs.get(i), flavour, up, options));
                }
            }
            return points;
        } finally {
            for (Deployment deployment : up.values()) {
                deployment.close();
            }
        }
    }

    /**
     * The members dimension: an ensemble per point and flavour, each stopped before the next starts
     * (seven members of each flavour at once would be fourteen JVMs on the machine), the flavours'
     * order alternating from point to point.
     */
    private List<ScalePoint> runMembers(ScaleOptions options) throws IOException, InterruptedException {
        List<ScalePoint> points = new ArrayList<>();
        JvmSettings memberJvm = new JvmSettings(options.jvm().javaExecutable(), options.jvm().classPath(),
                options.memberHeapMb(), options.jvm().juteMaxBufferBytes());
        List<Long> xs = options.points().get(ScaleDimension.MEMBERS);
        for (int i = 0; i < xs.size(); i++) {
            long x = xs.get(i);
            List<Flavour> order = new ArrayList<>(options.flavours());
            if (i % 2 == 1) {
                java.util.Collections.reverse(order);
            }
            for (Flavour flavour : order) {
                Topology topology = Topology.parse("ensemble" + x);
                say("starting %s, %s", flavour.title(), topology.title());
                try (Deployment deployment = Deployment.start(flavour, topology,
                        freshDir(options, "members" + x, flavour), memberJvm, options.readyTimeoutMs())) {
                    warmUpJit(flavour, deployment, options);
                    points.add(measure(ScaleDimension.MEMBERS, x, flavour, new EnumMap<>(Map.of(flavour, deployment)),
                            options));
                } catch (DeploymentUnavailableException e) {
                    say("%s not available: %s", flavour.title(), e.getMessage());
                    points.add(ScalePoint.failed(ScaleDimension.MEMBERS, x, flavour, e.getMessage()));
                }
            }
        }
        return points;
    }

    /** setData, 16 sessions × 32 in flight, 1 KiB over 1,000 keys, the sessions spread over the members. */
    private ScalePoint members(long x, Flavour flavour, Deployment deployment, ScaleOptions options)
            throws IOException, InterruptedException {
        LoadSpec spec = new LoadSpec(deployment.connectString(), ClientKind.APACHE, Workload.SET_DATA, 16, 32, 1024,
                1000, 0, 1, 1, options.warmupSeconds(), options.measureSeconds(), SESSION_TIMEOUT_MS,
                ROOT + "-members", MAX_FRAME_BYTES);
        return of(ScaleDimension.MEMBERS, x, flavour, new LoadRunner(quiet()).run(spec));
    }

    private static Path freshDir(ScaleOptions options, String name, Flavour flavour) throws IOException {
        Path dir = options.workDir().resolve(name + "-" + flavour.name().toLowerCase());
        for (int restart = 1; Files.exists(dir); restart++) {
            dir = options.workDir().resolve(name + "-" + flavour.name().toLowerCase() + "-" + restart);
        }
        return Files.createDirectories(dir);
    }

    private void start(Flavour flavour, ScaleDimension dimension, ScaleOptions options, Map<Flavour, Deployment> up)
            throws IOException, InterruptedException {
        Path dir = freshDir(options, dimension.cliName(), flavour);
        say("starting %s standalone for %s", flavour.title(), dimension.cliName());
        try {
            Deployment deployment = Deployment.start(flavour, Topology.STANDALONE, dir, options.jvm(),
                    options.readyTimeoutMs());
            up.put(flavour, deployment);
            warmUpJit(flavour, deployment, options);
        } catch (DeploymentUnavailableException e) {
            say("%s not available: %s", flavour.title(), e.getMessage());
        }
    }

    /**
     * Unmeasured mixed load once per server, so the first point measures the server and not its
     * JIT compiler (on two cores the compilers take 15–30 s).
     */
    private void warmUpJit(Flavour flavour, Deployment deployment, ScaleOptions options) throws InterruptedException {
        if (options.jitWarmupSeconds() == 0) {
            return;
        }
        say("%s: %d s of unmeasured load to warm up the JIT", flavour.title(), options.jitWarmupSeconds());
        LoadSpec spec = new LoadSpec(deployment.connectString(), ClientKind.APACHE, Workload.MIXED, 16, 32, 1024, 1000,
                50, 1, 1, options.jitWarmupSeconds() - 1, 1, SESSION_TIMEOUT_MS, ROOT + "-jit-warmup", MAX_FRAME_BYTES);
        try {
            new LoadRunner(quiet()).run(spec);
        } catch (IOException | RuntimeException e) {
            say("%s: JIT warm-up load failed (%s); going on", flavour.title(), e.getMessage());
        }
    }

    private ScalePoint measure(ScaleDimension dimension, long x, Flavour flavour, Map<Flavour, Deployment> up,
                               ScaleOptions options) throws InterruptedException {
        Deployment deployment = up.get(flavour);
        if (deployment == null) {
            return ScalePoint.failed(dimension, x, flavour, "server not available");
        }
        say("%s, %s = %,d", flavour.title(), dimension.cliName(), x);
        try {
            ScalePoint point = switch (dimension) {
                case CONNECTIONS -> connections(x, flavour, deployment, options);
                case VALUE_SIZE -> valueSize(x, flavour, deployment, options);
                case WATCHERS -> watchers(x, flavour, deployment, options);
                case CHILDREN -> ChildrenLoad.measure(x, flavour, deployment, options);
                case ZNODES -> znodes.measure(x, flavour, deployment, options);
                case MEMBERS -> members(x, flavour, deployment, options);
            };
            say("%s, %s = %,d: %,.0f %s, p50 %.2f ms, p99 %.2f ms%s", flavour.title(), dimension.cliName(), x,
                    point.throughput(), dimension.throughputLabel(), point.p50Us() / 1000.0, point.p99Us() / 1000.0,
                    dimension.extraLabel().map(label -> ", " + ScaleReport.figure(point.extra()) + " " + label)
                            .orElse(""));
            return point;
        } catch (IOException | RuntimeException e) {
            say("%s, %s = %,d failed: %s", flavour.title(), dimension.cliName(), x, e.getMessage());
            if (!deployment.deadMembers().isEmpty()) {
                String why = "died: " + String.join("; ", deployment.deadMembers());
                if (dimension == ScaleDimension.MEMBERS) {
                    return ScalePoint.failed(dimension, x, flavour, why); // each point starts its own ensemble
                }
                up.remove(flavour).close();
                try {
                    start(flavour, dimension, options, up);
                } catch (IOException restartFailure) {
                    say("%s not restarted: %s", flavour.title(), restartFailure.getMessage());
                }
                return ScalePoint.failed(dimension, x, flavour, why);
            }
            return ScalePoint.failed(dimension, x, flavour, e.getMessage());
        }
    }

    /** {@code x} sessions open, 16 of them running mixed load (16 × 32, 1 KiB, 90 % reads), the rest pinging. */
    private ScalePoint connections(long x, Flavour flavour, Deployment deployment, ScaleOptions options)
            throws IOException, InterruptedException {
        int idle = (int) (x - ScaleDimension.ACTIVE_SESSIONS);
        RawSessions idleSessions = idle > 0 ? RawSessions.open("127.0.0.1", port(deployment), idle, SESSION_TIMEOUT_MS)
                : null;
        try {
            LoadSpec spec = new LoadSpec(deployment.connectString(), ClientKind.APACHE, Workload.MIXED,
                    ScaleDimension.ACTIVE_SESSIONS, 32, 1024, 1000, 90, 1, 1, options.warmupSeconds(),
                    options.measureSeconds(), SESSION_TIMEOUT_MS, ROOT, MAX_FRAME_BYTES);
            return of(ScaleDimension.CONNECTIONS, x, flavour, new LoadRunner(quiet()).run(spec));
        } finally {
            if (idleSessions != null) {
                idleSessions.close();
            }
        }
    }

    /** setData of {@code x}-byte values, 16 sessions × 4 in flight over 100 keys. */
    private ScalePoint valueSize(long x, Flavour flavour, Deployment deployment, ScaleOptions options)
            throws IOException, InterruptedException {
        LoadSpec spec = new LoadSpec(deployment.connectString(), ClientKind.APACHE, Workload.SET_DATA, 16, 4, (int) x,
                100, 0, 1, 1, options.warmupSeconds(), options.measureSeconds(), SESSION_TIMEOUT_MS,
                ROOT + "-" + x, MAX_FRAME_BYTES);
        return of(ScaleDimension.VALUE_SIZE, x, flavour, new LoadRunner(quiet()).run(spec));
    }

    /**
     * {@code x} sessions set an exists watch on one node, one of them changes it, and the time
     * runs until the last notification arrived; a first round unmeasured, then the rounds asked for.
     */
    private ScalePoint watchers(long x, Flavour flavour, Deployment deployment, ScaleOptions options)
            throws IOException, InterruptedException {
        createIfAbsent(deployment.connectString(), WATCHED);
        Histogram rounds = new Histogram(TimeUnit.MILLISECONDS.toMicros(WATCH_TIMEOUT_MS), 3);
        byte[] value = new byte[16];
        try (RawSessions sessions = RawSessions.open("127.0.0.1", port(deployment), (int) x, SESSION_TIMEOUT_MS)) {
            for (int round = 0; round <= options.watchRounds(); round++) {
                sessions.armExistsWatches(WATCHED, WATCH_TIMEOUT_MS);
                long sentNs = sessions.setData(WATCHED, value);
                long lastNs = sessions.awaitNotifications((int) x, WATCH_TIMEOUT_MS);
                if (round > 0) { // the first round pages in and compiles the watch path
                    rounds.recordValue(Math.max(1, TimeUnit.NANOSECONDS.toMicros(lastNs - sentNs)));
                }
            }
            if (sessions.failedReplies() > 0) {
                throw new IOException(sessions.failedReplies() + " requests failed");
            }
        }
        long p50Us = rounds.getValueAtPercentile(50);
        return new ScalePoint(ScaleDimension.WATCHERS, x, flavour, x * 1_000_000.0 / Math.max(1, p50Us), p50Us,
                rounds.getValueAtPercentile(99), null);
    }

    private static ScalePoint of(ScaleDimension dimension, long x, Flavour flavour, LoadResult result)
            throws IOException {
        if (result.errorCount() > 0) {
            throw new IOException(result.errorCount() + " failed operations: " + result.errors());
        }
        return new ScalePoint(dimension, x, flavour, result.opsPerSecond(), result.p50Us(), result.p99Us(), null);
    }

    private static void createIfAbsent(String connectString, String path) throws IOException, InterruptedException {
        LoadClient client = ClientKind.APACHE.connect(connectString, SESSION_TIMEOUT_MS, MAX_FRAME_BYTES);
        try {
            CompletableFuture<Integer> created = new CompletableFuture<>();
            client.create(path, new byte[0], false, (rc, actual) -> created.complete(rc));
            int rc = created.get(SESSION_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            if (rc != 0 && rc != dev.warden.protocol.ErrorCode.NODE_EXISTS.code()) {
                throw new IOException("cannot create " + path + ": error " + rc);
            }
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IOException("cannot create " + path + ": " + e.getMessage(), e);
        } finally {
            client.close();
        }
    }

    private static int port(Deployment deployment) {
        String connect = deployment.connectString();
        return Integer.parseInt(connect.substring(connect.lastIndexOf(':') + 1));
    }

    /** The per-second progress of each point would be hundreds of lines: each point's result is printed instead. */
    private static PrintWriter quiet() {
        return new PrintWriter(java.io.Writer.nullWriter());
    }

    private void say(String format, Object... args) {
        out.printf(Locale.ROOT, format + "%n", args);
        out.flush();
    }
}
