package dev.warden.bench.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.bench.BenchMain;
import dev.warden.bench.report.DocSplicer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The whole comparison, standalone, two short scenarios: both servers run and the document is filled in. */
class CompareCommandTest {
    @TempDir
    Path dir;

    @Test
    void standaloneComparisonFillsInTheDocumentAndWritesAPlot() throws Exception {
        Path doc = dir.resolve("BENCHMARKS.md");
        Files.writeString(doc, "# Benchmarks\nintro\n" + DocSplicer.BEGIN + "\nold\n" + DocSplicer.END + "\noutro\n");
        Path plot = dir.resolve("plot.svg");
        StringWriter out = new StringWriter();
        CommandLine cli = BenchMain.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(new StringWriter()));

        int status = cli.execute("compare", "--topologies", "standalone", "--scenarios", "setData,lock8",
                "--warmup", "0", "--duration", "1", "--jit-warmup", "2", "--rounds", "2", "--heap-mb", "256", "--work-dir", dir.resolve("work").toString(),
                "--doc", doc.toString(), "--plot", plot.toString());

        assertEquals(0, status, out::toString);
        String written = Files.readString(doc);
        assertTrue(written.startsWith("# Benchmarks\nintro\n" + DocSplicer.BEGIN), written);
        assertTrue(written.endsWith(DocSplicer.END + "\noutro\n"), written);
        assertTrue(!written.contains("\nold\n"), written);
        assertTrue(written.matches("(?s).*\\| setData \\| 16×32, 1 KiB \\| [0-9,]+ \\| [0-9,]+ \\| [0-9.]+× \\|.*"), written);
        assertTrue(written.matches("(?s).*\\| lock8 \\| 8 clients \\| [0-9,]+ \\| [0-9,]+ \\|.*"), written);
        // two rounds: the ratio of each round in the last column, the order alternating per round
        assertTrue(written.matches("(?s).*\\| setData \\|[^\\n]*\\| [0-9.]+, [0-9.]+ \\|\\n.*"), written);
        assertTrue(out.toString().contains("standalone, Apache ZooKeeper: setData (16×32, 1 KiB), round 2 of 2"),
                out::toString);
        assertTrue(!out.toString().contains("round 3"), out::toString);
        assertTrue(written.contains("![throughput and p99 per scenario](plot.svg)"), written);
        assertTrue(written.contains("Every deployment first ran 2 s of unmeasured load"), written);
        assertTrue(written.matches("(?s).*syncs a 1 KiB write in [0-9]+ µs \\(p50; p99 [0-9]+ µs\\).*"), written);
        assertTrue(out.toString().contains("fsync of 1024 bytes in "), out::toString);
        assertTrue(out.toString().contains("Warden, standalone: 2 s of unmeasured load to warm up the JIT"), out::toString);
        String svg = Files.readString(plot);
        assertTrue(svg.startsWith("<svg") && svg.contains(">setData<") && svg.contains(">lock8<"), svg);
        assertTrue(out.toString().contains("apache standalone SUMMARY {\"workload\":\"setData\""), out::toString);
        assertTrue(out.toString().contains("warden standalone SUMMARY {\"workload\":\"lock\""), out::toString);
    }

    @Test
    void lowDiskSpaceRestartsBothServersEmptyBeforeARound() throws Exception {
        Path doc = dir.resolve("LOWDISK.md");
        Files.writeString(doc, DocSplicer.BEGIN + "\n" + DocSplicer.END + "\n");
        Path work = dir.resolve("lowdisk-work");
        StringWriter out = new StringWriter();
        CommandLine cli = BenchMain.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(new StringWriter()));

        // no disk has a million GiB free, so the guard fires before the first round, then gives up
        int status = cli.execute("compare", "--topologies", "standalone", "--scenarios", "getData", "--rounds", "2",
                "--warmup", "0", "--duration", "1", "--jit-warmup", "0", "--min-free-gb", "1000000",
                "--heap-mb", "256", "--work-dir", work.toString(), "--doc", doc.toString(),
                "--plot", dir.resolve("lowdisk.svg").toString());

        assertEquals(0, status, out::toString);
        assertTrue(out.toString().contains("below 1000000.0 GiB: restarting both servers with empty data directories"),
                out::toString);
        assertEquals(4, out.toString().split(" serving on ", -1).length - 1, out::toString); // each server started twice
        // empty data directories cannot free a million GiB: said once, and no restart after that
        assertTrue(out.toString().contains("even with empty data directories; going on without restarting"),
                out::toString);
        assertTrue(Files.readString(doc).matches("(?s).*\\| getData \\| 16×32, 1 KiB \\| [0-9,]+ \\| [0-9,]+ \\|.*"));
        try (var dirs = Files.list(work)) {
            assertEquals(List.of("standalone"), dirs.map(p -> p.getFileName().toString()).toList(),
                    "the first deployments' directories are gone, the new ones reuse the name");
        }
    }

    /**
     * {@code kill} (SIGTERM) in the middle of a comparison: the JVM skips its finally blocks, so
     * the servers it started and its temporary directory must go with its exit hooks.
     */
    @Test
    void aSignalStopsTheServersAndDeletesTheTemporaryDirectory() throws Exception {
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        String java = ProcessHandle.current().info().command().orElse("java");
        Process bench = new ProcessBuilder(java, "-Djava.io.tmpdir=" + tmp, "-cp",
                ManagementFactory.getRuntimeMXBean().getClassPath(), BenchMain.class.getName(), "compare",
                "--topologies", "standalone", "--scenarios", "setData", "--warmup", "0", "--duration", "1",
                "--jit-warmup", "600", "--heap-mb", "256", "--doc", dir.resolve("none.md").toString(),
                "--plot", dir.resolve("none.svg").toString())
                .redirectErrorStream(true).start();
        List<ProcessHandle> servers = new ArrayList<>();
        List<ProcessHandle> stillRunning = new ArrayList<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(bench.getInputStream(),
                StandardCharsets.UTF_8))) {
            // the first server is up and under warm-up load when the signal comes
            boolean warmingUp = false;
            StringBuilder seen = new StringBuilder();
            while (!warmingUp) {
                String line = out.readLine();
                if (line == null) {
                    break;
                }
                seen.append(line).append('\n');
                warmingUp = line.contains("of unmeasured load to warm up the JIT");
            }
            assertTrue(warmingUp, seen::toString);
            servers.addAll(bench.descendants().filter(ProcessHandle::isAlive).toList());
            assertEquals(1, servers.size(), "the first standalone server runs as a child: " + servers);
            try (Stream<Path> work = Files.list(tmp)) {
                assertTrue(work.anyMatch(p -> p.getFileName().toString().startsWith("warden-bench-compare")));
            }

            bench.destroy(); // SIGTERM, as kill and timeout send
            assertTrue(bench.waitFor(60, TimeUnit.SECONDS), "the comparison ends on SIGTERM");
            // the exit hook stops the servers before the JVM ends, so none may be left now
            stillRunning.addAll(servers.stream().filter(ProcessHandle::isAlive).toList());
        } finally {
            bench.destroyForcibly();
            servers.forEach(ProcessHandle::destroyForcibly);
        }
        assertEquals(List.of(), stillRunning, "servers left running after the comparison ended");
        try (Stream<Path> left = Files.list(tmp)) {
            List<Path> leftovers = left.filter(p -> p.getFileName().toString().startsWith("warden-bench-compare"))
                    .toList();
            assertEquals(List.of(), leftovers, "the temporary work directory is deleted");
        }
    }

    @Test
    void zeroRoundsIsAUsageError() throws IOException {
        assertUsageError("rounds must be at least 1", "--rounds", "0");
    }

    @Test
    void aDocumentWithoutTheResultsMarkersIsRefusedBeforeAnythingRuns() throws IOException {
        Files.writeString(dir.resolve("x.md"), "# Benchmarks\nno markers\n");
        assertUsageError("lacks the markers " + DocSplicer.BEGIN, "--topologies", "standalone");
        assertEquals("# Benchmarks\nno markers\n", Files.readString(dir.resolve("x.md")));
    }

    @Test
    void unknownScenarioIsAUsageError() throws IOException {
        assertUsageError("unknown scenario 'nope'", "--scenarios", "nope");
    }

    /**
     * {@code compare} with {@code options} exits with picocli's usage status, says {@code message}
     * and leaves no temporary work directory behind.
     */
    private void assertUsageError(String message, String... options) throws IOException {
        Set<Path> workDirsBefore = temporaryWorkDirs();
        StringWriter err = new StringWriter();
        CommandLine cli = BenchMain.commandLine();
        cli.setErr(new PrintWriter(err));
        List<String> args = new ArrayList<>(List.of("compare"));
        args.addAll(List.of(options));
        args.addAll(List.of("--doc", dir.resolve("x.md").toString()));
        int status = cli.execute(args.toArray(String[]::new));
        assertEquals(CommandLine.ExitCode.USAGE, status);
        assertTrue(err.toString().contains(message), err::toString);
        Set<Path> left = new HashSet<>(temporaryWorkDirs());
        left.removeAll(workDirsBefore);
        assertEquals(Set.of(), left, "work directories left behind");
    }

    private static Set<Path> temporaryWorkDirs() throws IOException {
        try (Stream<Path> entries = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return entries.filter(p -> p.getFileName().toString().startsWith("warden-bench-compare"))
                    .collect(Collectors.toSet());
        }
    }
}
