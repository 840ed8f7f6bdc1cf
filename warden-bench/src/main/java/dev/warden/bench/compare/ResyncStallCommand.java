package dev.warden.bench.compare;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
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

    @Mixin
    private StallRounds rounds;

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

    @Option(names = "--ready-timeout", defaultValue = "120", paramLabel = "SECONDS",
            description = "How long members may take to serve (default ${DEFAULT-VALUE}).")
    private int readyTimeoutSeconds;

    @Override
    public Integer call() throws Exception {
        if (rounds.rounds < 1 || writers < 1 || settleSeconds < 0 || znodes < 0) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--rounds and --writers must be at least 1, --settle and --znodes at least 0");
        }
        ResyncStallRun run = new ResyncStallRun(JvmSettings.ofThisJvm(heapMb), writers, znodes, settleSeconds * 1000L,
                readyTimeoutSeconds * 1000L);
        return rounds.run("resync", spec.commandLine().getOut(), spec.commandLine().getErr(), run::measure,
                (round, flavour, stalls) -> String.format(Locale.ROOT, "round %d %-16s rejoin: longest stall %5d ms"
                                + " (from +%d ms), follower serving after %d ms   no change: %d ms   (%d failed writes)",
                        round, flavour.title(), stalls.resyncMs(), stalls.resyncStartsAfterMs(),
                        stalls.followerBackMs(), stalls.unchangedMs(), stalls.failedWrites()),
                (warden, apache) -> summary(znodes, warden, apache));
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
