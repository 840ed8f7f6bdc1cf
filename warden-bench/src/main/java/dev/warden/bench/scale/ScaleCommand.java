package dev.warden.bench.scale;

import dev.warden.bench.BenchMain;
import dev.warden.bench.ExitCleanup;
import dev.warden.bench.WorkDirectories;
import dev.warden.bench.compare.JvmSettings;
import dev.warden.bench.report.DocSplicer;
import dev.warden.bench.report.MachineInfo;
import dev.warden.bench.report.ScalePlot;
import dev.warden.bench.report.ScaleReport;
import dev.warden.cli.cluster.Flavour;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** {@code warden bench scale}: both servers, standalone, as one dimension grows. */
@Command(name = "scale", mixinStandardHelpOptions = true,
        description = {"Throughput and p99 of Warden and Apache ZooKeeper (fsync on) as one dimension grows with",
                "everything else fixed: open connections, watchers on one node, value size (the default three),",
                "children of one node, znodes in the tree, members of the ensemble.",
                "Writes a table per dimension into the performance document and an SVG plot per dimension."})
public final class ScaleCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = {"--dimension", "--dimensions"}, split = ",", defaultValue = "connections,watchers,value-size",
            paramLabel = "D[,D]", description = "connections, watchers, value-size, children, znodes, members"
                    + " (default ${DEFAULT-VALUE}).")
    private List<String> dimensions;

    @Option(names = "--points", split = ",", paramLabel = "N[,N]",
            description = "The values to measure at, with one --dimension only (default: connections 16,256,1024,"
                    + "4096,10000; watchers 1,10,100,1000,10000; value-size 16,256,4096,65536,1048576; children 1000,"
                    + "10000,100000; znodes 10000,100000,1000000, growing only; members 3,5,7). 10000000 znodes is"
                    + " opt-in: it needs --heap-mb of about 8192 and minutes per server.")
    private List<Long> points;

    @Option(names = "--servers", split = ",", defaultValue = "apache,warden", paramLabel = "S[,S]",
            description = "apache, warden (default ${DEFAULT-VALUE}).")
    private List<String> servers;

    @Option(names = "--warmup", defaultValue = "3", paramLabel = "SECONDS",
            description = "Warm-up per point and server (default ${DEFAULT-VALUE}).")
    private int warmupSeconds;

    @Option(names = "--duration", defaultValue = "8", paramLabel = "SECONDS",
            description = "Measured time per point and server (default ${DEFAULT-VALUE}).")
    private int measureSeconds;

    @Option(names = "--watch-rounds", defaultValue = "10", paramLabel = "N",
            description = "Measured setData rounds per watcher count (default ${DEFAULT-VALUE}).")
    private int watchRounds;

    @Option(names = "--jit-warmup", defaultValue = "20", paramLabel = "SECONDS",
            description = "Unmeasured mixed load each server gets once after it starts, so the first point does not"
                    + " measure the JIT compiler (default ${DEFAULT-VALUE}; 0 for none).")
    private int jitWarmupSeconds;

    @Option(names = "--heap-mb", defaultValue = "2048", description = "Heap of each standalone server (default"
            + " ${DEFAULT-VALUE}).")
    private int heapMb;

    @Option(names = "--member-heap-mb", defaultValue = "512", description = "Heap of each ensemble member in the"
            + " members dimension, where up to seven run at once (default ${DEFAULT-VALUE}).")
    private int memberHeapMb;

    @Option(names = "--work-dir", paramLabel = "DIR",
            description = "Where the servers keep data and logs (default: a temporary directory, deleted afterwards).")
    private Path workDir;

    @Option(names = "--doc", defaultValue = "docs/PERFORMANCE.md", paramLabel = "FILE",
            description = "Markdown file whose bench:scale:DIMENSION section of each dimension run is replaced"
                    + " (default ${DEFAULT-VALUE}).")
    private Path docFile;

    @Option(names = "--plot-dir", defaultValue = "docs/scale", paramLabel = "DIR",
            description = "Where the plots go, one DIMENSION.svg each (default ${DEFAULT-VALUE}).")
    private Path plotDir;

    @Option(names = "--ready-timeout", defaultValue = "90", paramLabel = "SECONDS",
            description = "How long a server may take to serve (default ${DEFAULT-VALUE}).")
    private int readyTimeoutSeconds;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ScaleOptions options;
        boolean temporaryDir = workDir == null;
        Path dir = null;
        try {
            options = options(Path.of("unused"));
            for (ScaleDimension dimension : options.dimensions()) {
                DocSplicer.requireMarkersIfExists(docFile, ScaleReport.markers(dimension));
            }
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        try {
            dir = temporaryDir ? Files.createTempDirectory("warden-bench-scale") : workDir;
            options = options(dir);
        } catch (IOException e) {
            err.println("cannot create a work directory: " + e.getMessage());
            err.flush();
            return BenchMain.EXIT_FAILED;
        }
        ExitCleanup.Registration deleteAtExit = temporaryDir ? ExitCleanup.deleteOnExit(dir) : null;
        try {
            ZonedDateTime startedAt = ZonedDateTime.now();
            List<ScalePoint> measured = new ScaleRunner(out).run(options);
            Files.createDirectories(plotDir);
            for (ScaleDimension dimension : options.dimensions()) {
                Path plot = plotDir.resolve(dimension.cliName() + ".svg");
                Files.writeString(plot, ScalePlot.render(dimension, measured), StandardCharsets.UTF_8);
                out.println("plot written to " + plot);
            }
            String header = header(startedAt, options);
            for (ScaleDimension dimension : options.dimensions()) {
                String section = ScaleReport.section(header, dimension, measured,
                        Optional.of(relative(plotDir.resolve(dimension.cliName() + ".svg"))));
                out.println();
                out.println(section);
                // each dimension has a section of its own: a run of some dimensions keeps the others' figures
                if (Files.isRegularFile(docFile)) {
                    DocSplicer.spliceFile(docFile, ScaleReport.markers(dimension), section);
                    out.println("results written to " + docFile);
                }
            }
            out.flush();
            return measured.stream().allMatch(ScalePoint::measured) ? 0 : BenchMain.EXIT_FAILED;
        } catch (IOException e) {
            err.println("scale run failed: " + e.getMessage());
            err.flush();
            return BenchMain.EXIT_FAILED;
        } finally {
            if (temporaryDir) {
                WorkDirectories.deleteTree(dir);
                deleteAtExit.close();
            }
        }
    }

    /** The run's options; bad values are an IllegalArgumentException naming the option. */
    ScaleOptions options(Path dir) {
        List<ScaleDimension> parsed = dimensions.stream().map(ScaleDimension::parse).distinct().toList();
        if (points != null && parsed.size() != 1) {
            throw new IllegalArgumentException("--points needs exactly one --dimension, not " + parsed.size());
        }
        Map<ScaleDimension, List<Long>> xs = new EnumMap<>(ScaleDimension.class);
        parsed.forEach(d -> xs.put(d, points != null ? List.copyOf(points) : d.defaultPoints()));
        List<Flavour> flavours = servers.stream().map(ScaleCommand::flavour).distinct().toList();
        return new ScaleOptions(parsed, xs, flavours, warmupSeconds, measureSeconds, watchRounds, jitWarmupSeconds,
                JvmSettings.ofThisJvm(heapMb), memberHeapMb, dir, readyTimeoutSeconds * 1000L);
    }

    private static Flavour flavour(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "apache", "zookeeper" -> Flavour.APACHE;
            case "warden" -> Flavour.WARDEN;
            default -> throw new IllegalArgumentException("--servers: unknown server '" + name + "'; known: apache,"
                    + " warden");
        };
    }

    private static String header(ZonedDateTime startedAt, ScaleOptions options) {
        String header = String.format(Locale.ROOT, "Run of %s on %s. Each server standalone in its own JVM (-Xms/-Xmx"
                        + " %d MiB), fsync on, loopback, jute.maxbuffer %d bytes on both servers and the client; both"
                        + " up together, the order alternating from point to point, each first given %d s of"
                        + " unmeasured load for its JIT. Each load point: %d s warm-up, %d s measured; each watcher"
                        + " count: one unmeasured round, then %d.",
                startedAt.format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm zzz", Locale.ROOT)),
                MachineInfo.ofThisMachine().describe(), options.jvm().heapMb(), options.jvm().juteMaxBufferBytes(),
                options.jitWarmupSeconds(), options.warmupSeconds(), options.measureSeconds(), options.watchRounds());
        if (options.dimensions().contains(ScaleDimension.MEMBERS)) {
            header += String.format(Locale.ROOT, " Members dimension: one flavour's ensemble up at a time (the"
                    + " members' JVMs, -Xms/-Xmx %d MiB each, started as bench compare starts them), the order"
                    + " alternating from point to point, each ensemble first given the same JIT warm-up.",
                    options.memberHeapMb());
        }
        return header;
    }

    private String relative(Path plot) {
        Path docDir = docFile.toAbsolutePath().getParent();
        return docDir == null ? plot.toString() : docDir.relativize(plot.toAbsolutePath()).toString();
    }
}
