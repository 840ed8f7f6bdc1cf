package dev.warden.bench.resources;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Measures one server flavour's memory and disk figures in this JVM (one flavour per JVM, so
 * heaps never mix), then restarts it in a fresh JVM on the same data, once from the snapshot
 * alone and once with writes logged after it to replay. Prints a
 * {@link ProbeReport} on stdout. See docs/RESOURCES.md for what each figure means.
 */
public final class ResourceProbe {
    static final String SERVING = "serving";
    /**
     * Writes logged after the snapshot for the second restart. Both servers snapshot somewhere
     * between snapCount/2 and snapCount (50,000 to 100,000) writes after the last one, so with
     * fewer than 50,000 neither takes one on the way and both replay all of them.
     */
    static final int LOG_TAIL_WRITES = 40_000;
    private static final long CHILD_TIMEOUT_MS = 900_000;

    private final ProbeOptions options;

    ResourceProbe(ProbeOptions options) {
        this.options = options;
    }

    public static void main(String[] args) throws Exception {
        dev.warden.cli.ToolLogging.quiet(dev.warden.bench.BenchMain.APACHE_CLIENT_LEVELS);
        ProbeOptions options;
        try {
            options = ProbeOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        ResourceProbe probe = new ResourceProbe(options);
        int status = 0;
        try {
            ProbeReport report = options.restartPhase() ? probe.restart() : probe.measure();
            System.out.print(report.format());
        } catch (Exception | Error e) {
            e.printStackTrace();
            status = 1;
        }
        System.out.flush();
        // Client and server libraries may leave non-daemon threads behind; never hang on them.
        System.exit(status);
    }

    /**
     * The full probe: load, weigh, watch, snapshot, then time a restart in a child JVM; then log
     * writes past the snapshot and time a restart that replays them.
     */
    ProbeReport measure() throws IOException, InterruptedException {
        Path dataDir = options.dataDir();
        Files.createDirectories(dataDir);
        try (var entries = Files.list(dataDir)) {
            if (entries.findAny().isPresent()) {
                throw new IllegalArgumentException("--data-dir must be empty: " + dataDir);
            }
        }
        int znodes = options.znodes();
        int total = znodes + ZnodeLayout.parentCount(znodes);
        ProbeReport report = new ProbeReport()
                .put(ProbeReport.FLAVOUR, options.flavour().cliName())
                .put(ProbeReport.ZNODES, znodes)
                .put(ProbeReport.ZNODES_WITH_PARENTS, total);
        try (EmbeddedServer server = EmbeddedServer.start(options.flavour(), dataDir, options.snapCount())) {
            long heapBaseline = ProcessMemory.heapUsedAfterGcBytes();
            long rssBaseline = ProcessMemory.residentBytes();
            long createStartNs = System.nanoTime();
            try (ZnodeLoader loader = ZnodeLoader.connect(server.connectString(), options.maxInFlight())) {
                loader.createTree(znodes);
            }
            report.put(ProbeReport.CREATE_MS, elapsedMs(createStartNs));
            long heapLoaded = ProcessMemory.heapUsedAfterGcBytes();
            long rssLoaded = ProcessMemory.residentBytes();
            report.put(ProbeReport.HEAP_BASELINE_BYTES, heapBaseline)
                    .put(ProbeReport.HEAP_BYTES_PER_ZNODE, perItem(heapLoaded - heapBaseline, total))
                    .put(ProbeReport.RSS_BASELINE_BYTES, rssBaseline)
                    .put(ProbeReport.RSS_BYTES_PER_ZNODE, perItem(rssLoaded - rssBaseline, total));
            report.put(ProbeReport.WATCHES, znodes)
                    .put(ProbeReport.HEAP_BYTES_PER_WATCH, perItem(weighWatches(server), znodes));
            int idleSessions = options.idleSessions();
            report.put(ProbeReport.IDLE_SESSIONS, idleSessions)
                    .put(ProbeReport.HEAP_BYTES_PER_IDLE_SESSION, perItem(weighIdleSessions(server), idleSessions));
            long snapshotStartNs = System.nanoTime();
            Path snapshot = server.snapshotNow();
            report.put(ProbeReport.SNAPSHOT_MS, elapsedMs(snapshotStartNs))
                    .put(ProbeReport.SNAPSHOT_BYTES, Files.size(snapshot));
        }
        report.putAll(timeRestart(0, ProbeReport.RESTART_TO_SERVING_MS, ProbeReport.RESTART_SERVER_START_MS));
        int logTail = Math.min(LOG_TAIL_WRITES, znodes);
        try (EmbeddedServer server = EmbeddedServer.start(options.flavour(), dataDir, options.snapCount());
             ZnodeLoader loader = ZnodeLoader.connect(server.connectString(), options.maxInFlight())) {
            loader.setTree(logTail);
        }
        report.put(ProbeReport.LOG_TAIL_WRITES, logTail);
        return report.putAll(timeRestart(logTail, ProbeReport.RESTART_WITH_LOG_TO_SERVING_MS,
                ProbeReport.RESTART_WITH_LOG_SERVER_START_MS));
    }

    /**
     * The watch holder's heap: the Apache client keeps a record of every watch it set (about 200
     * bytes each), so 1 GiB holds 2.5 million, and a larger tree gets a larger holder.
     */
    static long watchHolderHeapMb(int watches) {
        return Math.max(1024, watches / 2_500);
    }

    /** Heap growth while a child JVM's session holds one exists-watch on every leaf znode. */
    private long weighWatches(EmbeddedServer server) throws IOException, InterruptedException {
        Process holder = ChildJvm.start(List.of("-Xmx" + watchHolderHeapMb(options.znodes()) + "m"), WatchHolder.class,
                List.of(server.connectString(), Integer.toString(options.znodes()),
                        Integer.toString(options.maxInFlight())),
                options.dataDir().resolveSibling(options.dataDir().getFileName() + "-watch-holder.log"));
        try (BufferedReader out = lines(holder);
             Writer in = new OutputStreamWriter(holder.getOutputStream(), StandardCharsets.UTF_8)) {
            expectLine(out, WatchHolder.CONNECTED, holder);
            long before = ProcessMemory.heapUsedAfterGcBytes();
            in.write(WatchHolder.GO + "\n");
            in.flush();
            expectLine(out, WatchHolder.WATCHED, holder);
            return ProcessMemory.heapUsedAfterGcBytes() - before;
        } finally {
            if (!holder.waitFor(CHILD_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                holder.destroyForcibly();
            }
        }
    }

    /**
     * Heap growth while a child JVM holds {@code --idle-sessions} sessions that only ping: the
     * session, its connection and their buffers, as the server keeps them.
     */
    private long weighIdleSessions(EmbeddedServer server) throws IOException, InterruptedException {
        String connect = server.connectString();
        Process holder = ChildJvm.start(List.of("-Xmx256m"), SessionHolder.class,
                List.of(connect.substring(0, connect.lastIndexOf(':')), connect.substring(connect.lastIndexOf(':') + 1),
                        Integer.toString(options.idleSessions())),
                options.dataDir().resolveSibling(options.dataDir().getFileName() + "-session-holder.log"));
        try (BufferedReader out = lines(holder);
             Writer in = new OutputStreamWriter(holder.getOutputStream(), StandardCharsets.UTF_8)) {
            expectLine(out, SessionHolder.READY, holder);
            long before = ProcessMemory.heapUsedAfterGcBytes();
            in.write(SessionHolder.GO + "\n");
            in.flush();
            expectLine(out, SessionHolder.OPENED, holder);
            return ProcessMemory.heapUsedAfterGcBytes() - before;
        } finally {
            if (!holder.waitFor(CHILD_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                holder.destroyForcibly();
            }
        }
    }

    /**
     * Time from launching a fresh JVM on the data to its first successful read, under
     * {@code servingKey}, and the child's own server start under {@code serverStartKey}.
     * The child checks that the {@code logTail} writes after the snapshot are there.
     */
    private ProbeReport timeRestart(int logTail, String servingKey, String serverStartKey)
            throws IOException, InterruptedException {
        long launchNs = System.nanoTime();
        String logName = options.dataDir().getFileName() + (logTail == 0 ? "-restart.log" : "-restart-with-log.log");
        Process child = ChildJvm.start(ChildJvm.heapOptionsOfThisJvm(), ResourceProbe.class,
                options.restartArgs(logTail), options.dataDir().resolveSibling(logName));
        ProbeReport childReport = new ProbeReport();
        long servingMs;
        try (BufferedReader out = lines(child)) {
            expectLine(out, SERVING, child);
            servingMs = elapsedMs(launchNs);
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                ProbeReport.parseLine(line, childReport);
            }
        }
        if (!child.waitFor(CHILD_TIMEOUT_MS, TimeUnit.MILLISECONDS) || child.exitValue() != 0) {
            child.destroyForcibly();
            throw new IOException("restart probe failed; see " + logName + " beside " + options.dataDir());
        }
        return new ProbeReport().put(servingKey, servingMs)
                .put(serverStartKey, childReport.get(ProbeReport.RESTART_SERVER_START_MS));
    }

    /**
     * The restart phase, run in a fresh JVM: recover, then serve one read of the last znode, and
     * check that the last write logged after the snapshot (if any) survived the restart.
     */
    ProbeReport restart() throws IOException, InterruptedException {
        long startNs = System.nanoTime();
        try (EmbeddedServer server = EmbeddedServer.start(options.flavour(), options.dataDir(), options.snapCount())) {
            long serverStartMs = elapsedMs(startNs);
            String lastPath = ZnodeLayout.nodePath(options.znodes() - 1);
            try (ZnodeLoader loader = ZnodeLoader.connect(server.connectString(), 1)) {
                byte[] value = loader.getData(lastPath);
                if (value.length != ZnodeLoader.VALUE_BYTES) {
                    throw new IllegalStateException(lastPath + " has " + value.length + " bytes after restart");
                }
                if (options.logTail() > 0) {
                    String lastSet = ZnodeLayout.nodePath(options.logTail() - 1);
                    if (!Arrays.equals(loader.getData(lastSet), ZnodeLoader.TAIL_VALUE)) {
                        throw new IllegalStateException(lastSet + " lost the write logged after the snapshot");
                    }
                }
            } catch (org.apache.zookeeper.KeeperException e) {
                throw new IllegalStateException("reading after restart failed: " + e, e);
            }
            System.out.println(SERVING);
            System.out.flush();
            return new ProbeReport().put(ProbeReport.RESTART_SERVER_START_MS, serverStartMs);
        }
    }

    private static BufferedReader lines(Process process) {
        return new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    /** Reads the child's stdout until {@code expected}; other lines (stray prints) are skipped. */
    private static void expectLine(BufferedReader out, String expected, Process child) throws IOException {
        for (String line = out.readLine(); line != null; line = out.readLine()) {
            if (line.equals(expected)) {
                return;
            }
        }
        throw new IOException("child JVM " + child.pid() + " ended before printing '" + expected + "'");
    }

    private static long elapsedMs(long startNs) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
    }

    private static String perItem(long bytes, int items) {
        return String.format(Locale.ROOT, "%.1f", (double) bytes / items);
    }
}
