package dev.warden.bench.compare;

import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
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

    @Mixin
    private StallRounds rounds;

    @Option(names = "--writers", defaultValue = "8", paramLabel = "N",
            description = "Sessions writing, one write at a time each (default ${DEFAULT-VALUE}).")
    private int writers;

    @Option(names = "--settle", defaultValue = "5", paramLabel = "SECONDS",
            description = "Load before the joiner starts, and between it starting and each change (default ${DEFAULT-VALUE}).")
    private int settleSeconds;

    @Option(names = "--heap-mb", defaultValue = "512", description = "Heap of every member (default ${DEFAULT-VALUE}).")
    private int heapMb;

    @Option(names = "--ready-timeout", defaultValue = "90", paramLabel = "SECONDS",
            description = "How long members may take to serve (default ${DEFAULT-VALUE}).")
    private int readyTimeoutSeconds;

    @Override
    public Integer call() throws Exception {
        if (rounds.rounds < 1 || writers < 1 || settleSeconds < 0) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--rounds and --writers must be at least 1, --settle at least 0");
        }
        ReconfigStallRun run = new ReconfigStallRun(JvmSettings.ofThisJvm(heapMb), writers, settleSeconds * 1000L,
                readyTimeoutSeconds * 1000L);
        return rounds.run("reconfig", spec.commandLine().getOut(), spec.commandLine().getErr(), run::measure,
                (round, flavour, stalls) -> String.format(Locale.ROOT, "round %d %-16s add: longest stall %5d ms"
                                + " (from +%d ms)   remove: %5d ms (from +%d ms)   no change: %d ms   (%d failed writes;"
                                + " requests sent at %s and %s UTC)",
                        round, flavour.title(), stalls.addMs(), stalls.addStartsAfterMs(), stalls.removeMs(),
                        stalls.removeStartsAfterMs(), stalls.unchangedMs(), stalls.failedWrites(),
                        TIME_OF_DAY.format(stalls.addRequestedAt()), TIME_OF_DAY.format(stalls.removeRequestedAt())),
                ReconfigStallCommand::summary);
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
