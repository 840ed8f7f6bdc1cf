package dev.warden.bench.resources;

import dev.warden.bench.BenchMain;
import dev.warden.bench.ExitCleanup;
import dev.warden.bench.WorkDirectories;
import dev.warden.bench.report.DocSplicer;
import dev.warden.cli.cluster.Flavour;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code warden bench resources}: heap and RSS per znode, bytes per watch, snapshot size and time,
 * restart to serving, for Warden and for Apache ZooKeeper, each in a child JVM of its own with the
 * same heap, written beside each other into the resources document.
 */
@Command(name = "resources", mixinStandardHelpOptions = true,
        description = {"Measure memory, snapshot and restart costs of both servers with many znodes.",
                "Heap and RSS per znode, heap per watch, snapshot size and time, restart to serving: Warden first,",
                "then Apache ZooKeeper, each in a JVM of its own with the same heap. The table of both and their",
                "ratios goes into the resources document."})
public final class ResourcesCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--znodes", defaultValue = "1000000", paramLabel = "N",
            description = "Znodes to create, 100-byte values, one watch on each (default ${DEFAULT-VALUE}).")
    private int znodes;

    @Option(names = "--xmx", defaultValue = "4g", paramLabel = "SIZE",
            description = "-Xms and -Xmx of each server's JVM, e.g. 4g or 512m (default ${DEFAULT-VALUE}).")
    private String heap;

    @Option(names = "--snap-count", defaultValue = "100000", paramLabel = "N",
            description = "Both servers' snapCount: a snapshot every N/2 to N transactions (default ${DEFAULT-VALUE},"
                    + " both servers' default). A large tree needs a larger one: each snapshot holds the whole tree.")
    private int snapCount;

    @Option(names = "--idle-sessions", defaultValue = "10000", paramLabel = "N",
            description = "Sessions that only ping, opened to weigh a session's heap (default ${DEFAULT-VALUE}).")
    private int idleSessions;

    @Option(names = "--work-dir", paramLabel = "DIR",
            description = "Where both servers keep data and the child JVMs' logs; must be empty or absent and on a"
                    + " real disk (default: a temporary directory, deleted afterwards).")
    private Path workDir;

    @Option(names = "--doc", defaultValue = "docs/RESOURCES.md", paramLabel = "FILE",
            description = "Markdown file whose figures section is replaced (default ${DEFAULT-VALUE}).")
    private Path docFile;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (znodes < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--znodes must be at least 1: " + znodes);
        }
        if (idleSessions < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--idle-sessions must be at least 1: "
                    + idleSessions);
        }
        if (snapCount < 2) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--snap-count must be at least 2: " + snapCount);
        }
        if (!heap.matches("[0-9]+[kKmMgG]?")) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--xmx must look like 4g, 512m or 4096m: '" + heap + "'");
        }
        long heapBytes = heapBytes(heap);
        long machineBytes = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getTotalMemorySize();
        if (2 * heapBytes > machineBytes) {
            // The probe's JVM keeps its heap while it times a restart in a second JVM of the same
            // size; past the machine's memory the kernel kills one of them minutes into the run.
            throw new CommandLine.ParameterException(spec.commandLine(), String.format(Locale.ROOT,
                    "--xmx %s: a probe and the restart it times run at once, each with that heap (%,d MiB together),"
                            + " more than this machine's %,d MiB; use a smaller --xmx",
                    heap, 2 * heapBytes >> 20, machineBytes >> 20));
        }
        try {
            DocSplicer.requireMarkersIfExists(docFile, ResourceComparison.FIGURES);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--doc: " + e.getMessage());
        }
        boolean temporaryDir = workDir == null;
        Path dir;
        try {
            dir = temporaryDir ? Files.createTempDirectory("warden-bench-resources") : workDir;
            if (!temporaryDir && Files.isDirectory(dir) && !isEmpty(dir)) {
                throw new CommandLine.ParameterException(spec.commandLine(),
                        "--work-dir " + dir + " is not empty; the probes need fresh data directories");
            }
        } catch (IOException e) {
            err.println("cannot create a work directory: " + e.getMessage());
            err.flush();
            return BenchMain.EXIT_FAILED;
        }
        boolean keepDir = false;
        ExitCleanup.Registration deleteAtExit = temporaryDir ? ExitCleanup.deleteOnExit(dir) : null;
        try {
            say(out, "Warden: %,d znodes, -Xmx%s, work directory %s", znodes, heap, dir);
            ProbeReport warden = ResourceComparison.runProbe(Flavour.WARDEN, znodes, heap, snapCount, idleSessions, dir);
            say(out, "Apache ZooKeeper: %,d znodes, -Xmx%s", znodes, heap);
            ProbeReport apache = ResourceComparison.runProbe(Flavour.APACHE, znodes, heap, snapCount, idleSessions, dir);
            String section = ResourceComparison.section(warden, apache, znodes, heap, snapCount);
            out.println();
            out.print(section);
            if (Files.isRegularFile(docFile)) {
                try {
                    DocSplicer.spliceFile(docFile, ResourceComparison.FIGURES, section);
                } catch (IllegalArgumentException e) {
                    err.println(docFile + ": " + e.getMessage() + "; figures printed above only");
                    err.flush();
                    return BenchMain.EXIT_FAILED;
                }
                out.println("figures written to " + docFile);
            } else {
                err.println("no " + docFile + " here: figures printed above only (use --doc FILE)");
            }
            out.flush();
            err.flush();
            return 0;
        } catch (IOException e) {
            keepDir = true; // it holds the probes' logs the message points to
            err.println("resource comparison failed: " + e.getMessage());
            err.flush();
            return BenchMain.EXIT_FAILED;
        } finally {
            if (temporaryDir) {
                if (!keepDir) {
                    WorkDirectories.deleteTree(dir);
                }
                deleteAtExit.close();
            }
        }
    }

    private static boolean isEmpty(Path dir) throws IOException {
        try (var entries = Files.list(dir)) {
            return entries.findAny().isEmpty();
        }
    }

    private static void say(PrintWriter out, String format, Object... args) {
        out.println(String.format(Locale.ROOT, format, args));
        out.flush();
    }

    /** {@code --xmx}'s size in bytes, as the JVM reads it (no suffix: bytes). */
    static long heapBytes(String size) {
        char unit = Character.toLowerCase(size.charAt(size.length() - 1));
        int shift = switch (unit) {
            case 'k' -> 10;
            case 'm' -> 20;
            case 'g' -> 30;
            default -> 0;
        };
        String digits = shift == 0 ? size : size.substring(0, size.length() - 1);
        return Long.parseLong(digits) << shift;
    }
}
