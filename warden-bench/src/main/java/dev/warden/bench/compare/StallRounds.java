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
import picocli.CommandLine.Option;

/**
 * What the stall commands ({@code bench reconfig}, {@code bench resync}) share: the options that
 * pick the rounds, the servers and the work directory, and the loop that measures each server
 * once a round, alternating which goes first, prints each round and then the summary.
 */
final class StallRounds {
    /** One measurement of one server, its files under {@code roundDir}. */
    interface Measure<S> {
        S measure(Flavour flavour, Path roundDir) throws Exception;
    }

    /** The line a round prints for one server. */
    interface RoundLine<S> {
        String line(int round, Flavour flavour, S stalls);
    }

    /** The summary of every round of each server (an empty list for a server not run). */
    interface Summary<S> {
        String summary(List<S> warden, List<S> apache);
    }

    @Option(names = "--rounds", defaultValue = "3", paramLabel = "N",
            description = "Measurements of each server (default ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--servers", split = ",", defaultValue = "warden,apache", paramLabel = "S[,S]",
            description = "warden, apache or both (default ${DEFAULT-VALUE}); the ratio needs both.")
    private List<String> servers;

    @Option(names = "--work-dir", paramLabel = "DIR",
            description = "Where members keep data and logs (default: a temporary directory, deleted afterwards).")
    private Path workDir;

    /** Runs the rounds; the command's exit status. {@code name} names the command in messages and the temporary directory. */
    <S> int run(String name, PrintWriter out, PrintWriter err, Measure<S> measure, RoundLine<S> roundLine,
                Summary<S> summary) throws Exception {
        List<Flavour> flavours = servers.stream().map(Flavour::parse).distinct().toList();
        boolean temporaryDir = workDir == null;
        Path dir;
        try {
            dir = temporaryDir ? Files.createTempDirectory("warden-bench-" + name) : workDir;
        } catch (IOException e) {
            err.println("cannot create a work directory: " + e.getMessage());
            return BenchMain.EXIT_FAILED;
        }
        ExitCleanup.Registration deleteAtExit = temporaryDir ? ExitCleanup.deleteOnExit(dir) : null;
        List<S> warden = new ArrayList<>();
        List<S> apache = new ArrayList<>();
        try {
            for (int round = 1; round <= rounds; round++) {
                List<Flavour> order = new ArrayList<>(flavours);
                if (round % 2 == 0) {
                    Collections.reverse(order);
                }
                for (Flavour flavour : order) {
                    Path roundDir = Files.createDirectories(dir.resolve("round-" + round));
                    S stalls = measure.measure(flavour, roundDir);
                    (flavour == Flavour.WARDEN ? warden : apache).add(stalls);
                    out.println(roundLine.line(round, flavour, stalls));
                    out.flush();
                }
            }
        } catch (IllegalStateException e) {
            err.println(name + " run failed: " + e.getMessage());
            return BenchMain.EXIT_FAILED;
        } finally {
            if (temporaryDir) {
                WorkDirectories.deleteTree(dir);
                deleteAtExit.close();
            }
        }
        out.println();
        out.println(summary.summary(warden, apache));
        out.flush();
        return 0;
    }
}
