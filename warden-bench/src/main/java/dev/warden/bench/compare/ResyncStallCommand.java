package dev.warden.bench.compare;

import dev.warden.bench.BenchMain;
import dev.warden.bench.ExitCleanup;
import dev.warden.bench.WorkDirectories;
import dev.warden.cli.cluster.Flavour;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code warden bench resync}: how long writes stall while a follower whose data directory was
 * emptied rejoins a 3-member ensemble and takes the whole state from the leader, Warden against
 * Apache ZooKeeper in the same run, rounds alternating which goes first; prints each round and
 * the medians with the Warden/Apache ratio.
 */
@Command(name = "resync", mixinStandardHelpOptions = true,
        description = {"Longest write stall while a follower with an emptied data directory rejoins a 3-member",
                "ensemble holding many znodes (the leader sends it a snapshot), Warden against Apache ZooKeeper",
                "in one run (rounds alternate which goes first; medians reported)."})
public final class ResyncStallCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--rounds", defaultValue = "3", paramLabel = "N",
            description = "Measurements of each server (default ${DEFAULT-VALUE}).")
    private int rounds;

    @Option(names = "--servers", split = ",", defaultValue = "warden,apache", paramLabel = "S[,S]",
            description = "warden, apache or both (default ${DEFAULT-VALUE}); the ratio needs both.")
    private List<String> servers;

    @Option(names = "--znodes", defaultValue = "300000", paramLabel = "N",
            description = "Znodes of 100 bytes in the tree before the follower is emptied (default ${DEFAULT-VALUE}).")
    private int znodes;

    @Option(names = "--writers", defaultValue = "8", paramLabel = "N",
            description = "Sessions writing to the leader, one write at a time each (default ${DEFAULT-VALUE}).")
    private int writers;

    @Option(names = "--settle", defaultValue = "5", paramLabel = "SECONDS",
            description = "Load before the follower is killed (default ${DEFAULT-VALUE}).")
    private int settleSeconds;

    @Option(names = "--heap-mb", defaultValue = "2048", description = "Heap of every member (default ${DEFAULT-VALUE}).")
    private int heapMb;

    @Option(names = "--work-dir", paramLabel = "DIR",
            description = "Where members keep data and logs (default: a temporary directory, deleted afterwards).")
    private Path workDir;

    @Option(names = "--ready-timeout", defaultValue = "120", paramLabel = "SECONDS",
            description = "How long members may take to serve (default ${DEFAULT-VALUE}).")
    private int readyTimeoutSeconds;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (rounds < 1 || writers < 1 || settleSeconds < 0 || znodes < 0) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--rounds and --writers must be at least 1, --settle and --znodes at least 0");
        }
        List<Flavour> flavours = servers.stream().map(Flavour::parse).distinct().toList();
        boolean temporaryDir = workDir == null;
        Path dir;
        try {
            dir = temporaryDir ? Files.createTempDirectory("warden-bench-resync") : workDir;
        } catch (IOException e) {
            err.println("cannot create a work directory: " + e.getMessage());
            return BenchMain.EXIT_FAILED;
        }
        ExitCleanup.Registration deleteAtExit = temporaryDir ? ExitCleanup.deleteOnExit(dir) : null;
        ResyncStallRun run = new ResyncStallRun(JvmSettings.ofThisJvm(heapMb), writers, znodes, settleSeconds * 1000L,
                readyTimeoutSeconds * 1000L);
        List<ResyncStallRun.Stalls> warden = new ArrayList<>();
        List<ResyncStallRun.Stalls> apache = new ArrayList<>();
        try {
            for (int round = 1; round <= rounds; round++) {
                List<Flavour> order = new ArrayList<>(flavours);
                if (round % 2 == 0) {
                    Collections.reverse(order);
                }
                for (Flavour flavour : order) {
                    Path roundDir = Files.createDirectories(dir.resolve("round-" + round));
                    ResyncStallRun.Stalls stalls = run.measure(flavour, roundDir);
                    (flavour == Flavour.WARDEN ? warden : apache).add(stalls);
                    out.printf(Locale.ROOT, "round %d %-16s rejoin: longest stall %5d ms (from +%d ms), follower"
                                    + " serving after %d ms   no change: %d ms   (%d failed writes)%n",
                            round, flavour.title(), stalls.resyncMs(), stalls.resyncStartsAfterMs(),
                            stalls.followerBackMs(), stalls.unchangedMs(), stalls.failedWrites());
                    out.flush();
                }
            }
        } catch (IllegalStateException e) {
            err.println("resync run failed: " + e.getMessage());
            return BenchMain.EXIT_FAILED;
        } finally {
            if (temporaryDir) {
                WorkDirectories.deleteTree(dir);
                deleteAtExit.close();
            }
        }
        out.println();
        out.println(summary(znodes, warden, apache));
        out.flush();
        return 0;
    }

    /** The medians as a markdown table, with the Warden/Apache ratio when both ran. */
    static String summary(int znodes, List<ResyncStallRun.Stalls> warden, List<ResyncStallRun.Stalls> apache) {
        StringBuilder text = new StringBuilder("| measure | Warden (median) | Apache ZooKeeper | Warden / Apache |\n"
                + "|---|---|---|---|\n");
        StallTable.row(text, String.format(Locale.ROOT, "longest write stall while an emptied follower rejoins"
                        + " (%,d znodes)", znodes),
                warden.stream().mapToLong(ResyncStallRun.Stalls::resyncMs).toArray(),
                apache.stream().mapToLong(ResyncStallRun.Stalls::resyncMs).toArray());
        StallTable.row(text, "longest write stall, no change (the 3 s before the kill)",
                warden.stream().mapToLong(ResyncStallRun.Stalls::unchangedMs).toArray(),
                apache.stream().mapToLong(ResyncStallRun.Stalls::unchangedMs).toArray());
        StallTable.row(text, "from the follower's restart until it serves",
                warden.stream().mapToLong(ResyncStallRun.Stalls::followerBackMs).toArray(),
                apache.stream().mapToLong(ResyncStallRun.Stalls::followerBackMs).toArray());
        return text.toString();
    }
}
