package dev.warden.bench.compare;

import dev.warden.bench.BenchMain;
import dev.warden.bench.ExitCleanup;
import dev.warden.bench.WorkDirectories;
import dev.warden.cli.cluster.Flavour;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code warden bench reconfig}: how long writes stall while a 3-member ensemble adds a fourth
 * member and removes it again, Warden against Apache ZooKeeper in the same run, rounds alternating
 * which goes first; prints each round and the medians with the Warden/Apache ratio.
 */
@Command(name = "reconfig", mixinStandardHelpOptions = true,
        description = {"Longest write stall while a 3-member ensemble adds a 4th member by reconfig and removes it,",
                "Warden against Apache ZooKeeper in one run (rounds alternate which goes first; medians reported)."})
public final class ReconfigStallCommand implements Callable<Integer> {
    private static final DateTimeFormatter TIME_OF_DAY = DateTimeFormatter.ofPattern("HH:mm:ss.SSS", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    @Spec
    private CommandSpec spec;

    @Option(names = "--rounds", defaultValue = "3", paramLabel = "N",
            description = "Measurements of each server (default ${DEFAULT-VALUE}).")
    private int rounds;

    @Option(names = "--servers", split = ",", defaultValue = "warden,apache", paramLabel = "S[,S]",
            description = "warden, apache or both (default ${DEFAULT-VALUE}); the ratio needs both.")
    private List<String> servers;

    @Option(names = "--writers", defaultValue = "8", paramLabel = "N",
            description = "Sessions writing, one write at a time each (default ${DEFAULT-VALUE}).")
    private int writers;

    @Option(names = "--settle", defaultValue = "5", paramLabel = "SECONDS",
            description = "Load before the joiner starts, and between it starting and each change (default ${DEFAULT-VALUE}).")
    private int settleSeconds;

    @Option(names = "--heap-mb", defaultValue = "512", description = "Heap of every member (default ${DEFAULT-VALUE}).")
    private int heapMb;

    @Option(names = "--work-dir", paramLabel = "DIR",
            description = "Where members keep data and logs (default: a temporary directory, deleted afterwards).")
    private Path workDir;

    @Option(names = "--ready-timeout", defaultValue = "90", paramLabel = "SECONDS",
            description = "How long members may take to serve (default ${DEFAULT-VALUE}).")
    private int readyTimeoutSeconds;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (rounds < 1 || writers < 1 || settleSeconds < 0) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--rounds and --writers must be at least 1, --settle at least 0");
        }
        List<Flavour> flavours = servers.stream().map(Flavour::parse).distinct().toList();
        boolean temporaryDir = workDir == null;
        Path dir;
        try {
            dir = temporaryDir ? Files.createTempDirectory("warden-bench-reconfig") : workDir;
        } catch (IOException e) {
            err.println("cannot create a work directory: " + e.getMessage());
            return BenchMain.EXIT_FAILED;
        }
        ExitCleanup.Registration deleteAtExit = temporaryDir ? ExitCleanup.deleteOnExit(dir) : null;
        ReconfigStallRun run = new ReconfigStallRun(JvmSettings.ofThisJvm(heapMb), writers, settleSeconds * 1000L,
                readyTimeoutSeconds * 1000L);
        List<ReconfigStallRun.Stalls> warden = new ArrayList<>();
        List<ReconfigStallRun.Stalls> apache = new ArrayList<>();
        try {
            for (int round = 1; round <= rounds; round++) {
                List<Flavour> order = new ArrayList<>(flavours);
                if (round % 2 == 0) {
                    java.util.Collections.reverse(order);
                }
                for (Flavour flavour : order) {
                    Path roundDir = Files.createDirectories(dir.resolve("round-" + round));
                    ReconfigStallRun.Stalls stalls = run.measure(flavour, roundDir);
                    (flavour == Flavour.WARDEN ? warden : apache).add(stalls);
                    out.printf(Locale.ROOT, "round %d %-16s add: longest stall %5d ms (from +%d ms)   remove: %5d ms"
                            + " (from +%d ms)   no change: %d ms   (%d failed writes; requests sent at %s and %s UTC)%n",
                            round, flavour.title(), stalls.addMs(), stalls.addStartsAfterMs(), stalls.removeMs(),
                            stalls.removeStartsAfterMs(), stalls.unchangedMs(), stalls.failedWrites(), TIME_OF_DAY.format(stalls.addRequestedAt()),
                            TIME_OF_DAY.format(stalls.removeRequestedAt()));
                    out.flush();
                }
            }
        } catch (IllegalStateException e) {
            err.println("reconfig run failed: " + e.getMessage());
            return BenchMain.EXIT_FAILED;
        } finally {
            if (temporaryDir) {
                WorkDirectories.deleteTree(dir);
                deleteAtExit.close();
            }
        }
        out.println();
        out.println(summary(warden, apache));
        out.flush();
        return 0;
    }

    /** The medians as a markdown table, with the Warden/Apache ratio when both ran. */
    static String summary(List<ReconfigStallRun.Stalls> warden, List<ReconfigStallRun.Stalls> apache) {
        StringBuilder text = new StringBuilder("| change | Warden, longest write stall (median) | Apache ZooKeeper"
                + " | Warden / Apache |\n|---|---|---|---|\n");
        StallTable.row(text, "add a 4th member", warden.stream().mapToLong(ReconfigStallRun.Stalls::addMs).toArray(),
                apache.stream().mapToLong(ReconfigStallRun.Stalls::addMs).toArray());
        StallTable.row(text, "remove it", warden.stream().mapToLong(ReconfigStallRun.Stalls::removeMs).toArray(),
                apache.stream().mapToLong(ReconfigStallRun.Stalls::removeMs).toArray());
        StallTable.row(text, "no change (the 3 s before the add)", warden.stream().mapToLong(ReconfigStallRun.Stalls::unchangedMs)
                .toArray(), apache.stream().mapToLong(ReconfigStallRun.Stalls::unchangedMs).toArray());
        return text.toString();
    }
}
