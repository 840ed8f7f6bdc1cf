package dev.warden.bench.compare;

import dev.warden.bench.BenchMain;
import dev.warden.bench.ExitCleanup;
import dev.warden.bench.WorkDirectories;
import dev.warden.bench.etcd.EtcdBinary;
import dev.warden.bench.etcd.EtcdUnavailableException;
import dev.warden.bench.load.ClientKind;
import dev.warden.bench.report.DocSplicer;
import dev.warden.bench.report.EtcdReport;
import dev.warden.bench.report.MarkdownReport;
import dev.warden.bench.report.SvgPlot;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** {@code warden bench compare}: Warden against Apache ZooKeeper, same machine, same run. */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = {"Compare Warden with Apache ZooKeeper on this machine, in one run.",
                "Starts both in the same topologies, runs the same scenarios against each (alternating which goes",
                "first), writes the Warden/Apache table into the benchmarks document and an SVG plot."})
public final class CompareCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--topologies", split = ",", defaultValue = "standalone,ensemble3", paramLabel = "T[,T]",
            description = "standalone, ensemble3, ensemble5, ensemble7, standalone-tls, ensemble3-tls (default"
                    + " ${DEFAULT-VALUE}); the -tls"
                    + " ones serve the load on secureClientPort and run the quorum on TLS, certificates made at start.")
    private List<String> topologies;

    @Option(names = "--scenarios", split = ",", paramLabel = "NAME[,NAME]",
            description = "Scenarios to run (default: all): setData, getData, exists, mixed90, createDelete, lock8,"
                    + " casSetData, fanout100, sessionStorm16, getData1x1, setData1x1, setData1x256, large1MiB.")
    private List<String> scenarios;

    @Option(names = "--warmup", defaultValue = "5", paramLabel = "SECONDS",
            description = "Warm-up per scenario and server (default ${DEFAULT-VALUE}).")
    private int warmupSeconds;

    @Option(names = "--jit-warmup", defaultValue = "30", paramLabel = "SECONDS",
            description = "Unmeasured mixed load each deployment gets once after it starts, so the JIT has compiled"
                    + " the server before the first scenario (default ${DEFAULT-VALUE}).")
    private int jitWarmupSeconds;

    @Option(names = "--duration", defaultValue = "20", paramLabel = "SECONDS",
            description = "Measured time per scenario and server (default ${DEFAULT-VALUE}).")
    private int measureSeconds;

    @Option(names = "--rounds", defaultValue = "1", paramLabel = "N",
            description = "Runs of every scenario against each server, alternating which goes first; the report"
                    + " gives the median of the runs and the ops/s ratio of each round (default ${DEFAULT-VALUE}).")
    private int rounds;

    @Option(names = "--min-free-gb", defaultValue = "20", paramLabel = "GIB",
            description = "Before each round, if the work directory's file system has less free space than this,"
                    + " both servers restart with empty data directories (default ${DEFAULT-VALUE}).")
    private long minFreeGb;

    @Option(names = "--heap-mb", defaultValue = "1024", description = "Heap of every member, both servers (default ${DEFAULT-VALUE}).")
    private int heapMb;

    @Option(names = "--client", defaultValue = "APACHE", paramLabel = "APACHE|APACHE_NIO|WARDEN",
            description = "Client generating the load: the Apache ZooKeeper Java client over its Netty socket"
                    + " (APACHE) or its NIO socket (APACHE_NIO), or Warden's client (default ${DEFAULT-VALUE}).")
    private ClientKind client;

    @Option(names = "--work-dir", paramLabel = "DIR",
            description = "Where members keep data and logs (default: a temporary directory, deleted afterwards).")
    private Path workDir;

    @Option(names = "--doc", defaultValue = "docs/BENCHMARKS.md", paramLabel = "FILE",
            description = "Markdown file whose results section is replaced (default ${DEFAULT-VALUE}).")
    private Path docFile;

    @Option(names = "--plot", defaultValue = "docs/benchmarks.svg", paramLabel = "FILE",
            description = "SVG plot to write (default ${DEFAULT-VALUE}).")
    private Path plotFile;

    @Option(names = "--with-etcd",
            description = "Also run etcd (one member standalone, three for ensemble3; `etcd` on the PATH or"
                    + " ETCD_BIN) as a third target for the scenarios with an etcd counterpart (setData, getData,"
                    + " casSetData, lock8, fanout100), and write the Warden/etcd section between the"
                    + " bench:etcd markers of the document.")
    private boolean withEtcd;

    @Option(names = "--ready-timeout", defaultValue = "90", paramLabel = "SECONDS",
            description = "How long a deployment may take to serve before it is reported not available"
                    + " (default ${DEFAULT-VALUE}).")
    private int readyTimeoutSeconds;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        CompareOptions options;
        boolean temporaryDir = workDir == null;
        Path dir = null;
        try {
            DocSplicer.requireMarkersIfExists(docFile, DocSplicer.BENCH_RESULTS);
            if (withEtcd) {
                DocSplicer.requireMarkersIfExists(docFile, EtcdReport.MARKERS);
                EtcdBinary.locate(); // before anything is measured: etcd missing is a usage error here
            }
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--doc: " + e.getMessage());
        } catch (EtcdUnavailableException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--with-etcd: " + e.getMessage());
        }
        try {
            dir = temporaryDir ? Files.createTempDirectory("warden-bench-compare") : workDir;
            options = new CompareOptions(topologies.stream().map(Topology::parse).toList(),
                    scenarios == null ? Suite.standard() : Suite.select(scenarios), warmupSeconds, measureSeconds,
                    client, JvmSettings.ofThisJvm(heapMb), dir, readyTimeoutSeconds * 1000L, jitWarmupSeconds, rounds,
                    minFreeGb << 30, withEtcd);
        } catch (IllegalArgumentException e) {
            if (temporaryDir && dir != null) {
                WorkDirectories.deleteTree(dir); // a usage error leaves nothing behind
            }
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        } catch (IOException e) {
            err.println("cannot create a work directory: " + e.getMessage());
            err.flush();
            return BenchMain.EXIT_FAILED;
        }
        // a temporary directory holds every server's log: gone at exit even if a signal stops us
        ExitCleanup.Registration deleteAtExit = temporaryDir ? ExitCleanup.deleteOnExit(dir) : null;
        try {
            CompareReport report = new CompareRunner(out).run(options);
            String markdown = MarkdownReport.render(report);
            out.println();
            out.println(markdown);
            if (EtcdReport.applies(report)) {
                String etcdMarkdown = EtcdReport.render(report);
                out.println(etcdMarkdown);
                writeEtcdSection(etcdMarkdown, out, err);
            }
            return writeResults(report, markdown, out, err) ? 0 : BenchMain.EXIT_FAILED;
        } catch (IOException e) {
            err.println("comparison failed: " + e.getMessage());
            err.flush();
            return BenchMain.EXIT_FAILED;
        } finally {
            if (temporaryDir) {
                WorkDirectories.deleteTree(options.workDir());
                deleteAtExit.close();
            }
        }
    }

    /** Writes the document's section and the plot; false if the document could not take the section. */
    private boolean writeResults(CompareReport report, String markdown, PrintWriter out, PrintWriter err)
            throws IOException {
        boolean docWritten = true;
        if (Files.isRegularFile(docFile)) {
            try {
                DocSplicer.spliceFile(docFile, markdown + "\n![throughput and p99 per scenario](" + relativePlot() + ")\n");
                out.println("results written to " + docFile);
            } catch (IllegalArgumentException e) { // the markers went while the comparison ran
                err.println(docFile + ": " + e.getMessage() + "; results printed above only");
                docWritten = false;
            }
        } else {
            err.println("no " + docFile + " here: results printed above only (use --doc FILE)");
        }
        if (plotFile.toAbsolutePath().getParent() != null) {
            Files.createDirectories(plotFile.toAbsolutePath().getParent());
        }
        Files.writeString(plotFile, SvgPlot.render(report), StandardCharsets.UTF_8);
        out.println("plot written to " + plotFile);
        out.flush();
        err.flush();
        return docWritten;
    }

    /** The etcd section, into its own markers; the Warden/Apache section is written as without etcd. */
    private void writeEtcdSection(String markdown, PrintWriter out, PrintWriter err) throws IOException {
        if (!Files.isRegularFile(docFile)) {
            return; // said once already by writeResults
        }
        String document = Files.readString(docFile, StandardCharsets.UTF_8);
        if (!DocSplicer.hasMarkers(document, EtcdReport.MARKERS)) {
            err.println(docFile + ": no " + EtcdReport.MARKERS.begin() + " section; etcd figures printed above only");
            return;
        }
        Files.writeString(docFile, DocSplicer.splice(document, EtcdReport.MARKERS, markdown), StandardCharsets.UTF_8);
        out.println("etcd figures written to " + docFile);
    }

    /** The plot as the document links it: relative to the document's directory when possible. */
    private String relativePlot() {
        Path docDir = docFile.toAbsolutePath().getParent();
        return docDir == null ? plotFile.toString() : docDir.relativize(plotFile.toAbsolutePath()).toString();
    }
}
