package dev.warden.chaos;

import dev.warden.chaos.nemesis.FaultKind;
import dev.warden.chaos.net.NetNamespaces;
import dev.warden.chaos.net.NetworkMode;
import dev.warden.chaos.report.HistoryJson;
import dev.warden.chaos.report.HtmlReport;
import dev.warden.chaos.report.Summary;
import dev.warden.chaos.run.ChaosRun;
import dev.warden.chaos.run.Leftovers;
import dev.warden.chaos.run.RunLog;
import dev.warden.chaos.run.RunOptions;
import dev.warden.chaos.run.RunResult;
import dev.warden.cli.cluster.Flavour;
import java.io.File;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code warden chaos}: real members under a seeded nemesis, the clients' history checked, a report per run. */
@Command(name = "warden chaos", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs real member processes under a seeded nemesis (partitions, slow and lossy links, kill -9,"
                + " SIGSTOP, clock jumps, disk faults, damaged data at rest), records what every client saw and checks"
                + " it: linearizable CAS registers, set, sequential ids, queue, fenced lock, watches, sessions,"
                + " monotonic reads. Writes an HTML report and the raw history (JSON) per run.",
                "Exit status: 0 no anomaly, 1 an anomaly in some run, 2 bad arguments."})
public final class ChaosMain implements Callable<Integer> {
    @Option(names = "--flavour", description = "warden, apache or both (Apache ZooKeeper 3.9 is the baseline; default both)")
    String flavour = "both";

    @Option(names = "--minutes", description = "length of the fault phase in minutes (default 5)")
    Integer minutes;

    @Option(names = "--seconds", description = "length of the fault phase in seconds (instead of --minutes)")
    Integer seconds;

    @Option(names = "--seed", description = "the first seed (default: from the clock); run i uses seed + i")
    Long seed;

    @Option(names = "--runs", description = "how many runs per flavour (default 1)")
    int runs = 1;

    @Option(names = "--faults", description = "comma-separated faults, or all (default). Faults: ${COMPLETION-CANDIDATES}",
            completionCandidates = FaultIds.class)
    String faults = "all";

    @Option(names = "--members", description = "3 or 5 (default 3)")
    int members = 3;

    @Option(names = "--network", description = "netns (each member in its own network namespace, partitions by"
            + " iptables; needs root and iptables), relay (everything on loopback, partitions by relays) or auto"
            + " (default: netns when this machine allows it, else relay, saying why)")
    String network = "auto";

    @Option(names = "--out", description = "where runs are written (default ./chaos-runs)")
    Path out = Path.of("chaos-runs");

    @Option(names = "--soak", description = "also sample heap after GC, threads, descriptors and disk of every member (leak watch)")
    boolean soak;

    @Option(names = "--hold-min-s", description = "shortest fault, seconds (default 5)")
    int holdMinS = 5;

    @Option(names = "--hold-max-s", description = "longest fault, seconds (default 15)")
    int holdMaxS = 15;

    @Option(names = "--tick-ms", description = "tickTime of the members (default 500)")
    int tickMs = 500;

    @Option(names = "--recheck", description = "check the history.json of an earlier run again (repeatable) and run nothing")
    List<Path> recheck = new ArrayList<>();

    @Option(names = "--set", description = "a key=value line for every member's zoo.cfg (repeatable), e.g. --set forceSync=no")
    List<String> configLines = new ArrayList<>();

    static final class FaultIds extends ArrayList<String> {
        FaultIds() {
            super(Arrays.stream(FaultKind.values()).map(FaultKind::id).toList());
        }
    }

    public static void main(String[] args) {
        // the Apache client logs every reconnect with a stack trace; faults make hundreds
        dev.warden.cli.ToolLogging.quiet(java.util.Map.of("org.apache.zookeeper", "ERROR"));
        System.exit(commandLine().execute(args));
    }

    public static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new ChaosMain());
        cli.setParameterExceptionHandler((e, args) -> {
            e.getCommandLine().getErr().println(e.getMessage());
            e.getCommandLine().usage(e.getCommandLine().getErr());
            return 2;
        });
        return cli;
    }

    /** The checkers again over saved histories: after a checker changed, or on a history someone sent. */
    private int recheck() throws java.io.IOException {
        long anomalies = 0;
        for (Path file : recheck) {
            java.util.List<dev.warden.chaos.history.Op> ops;
            try {
                ops = HistoryJson.readOps(file);
            } catch (java.nio.file.NoSuchFileException | IllegalArgumentException | ClassCastException e) {
                System.err.println("warden chaos: cannot read " + file + " as a chaos history: " + e.getMessage());
                return 2;
            }
            System.out.println("recheck " + file + ": " + ops.size() + " ops");
            for (dev.warden.chaos.check.CheckResult check : ChaosRun.check(ops)) {
                System.out.printf("check %-40s %-7s %s%n", check.checker(), check.verdict(), check.summary());
                check.anomalies().forEach(a -> System.out.println("  ANOMALY " + a.what()));
                anomalies += check.anomalies().size();
            }
        }
        return anomalies == 0 ? 0 : 1;
    }

    private RunOptions options(Flavour f, Duration faultFor, long runSeed, List<FaultKind> kinds, Path runDir,
                               String classPath) {
        return new RunOptions(f, members, faultFor, runSeed, kinds, runDir, tickMs, 5_000, holdMinS * 1_000L,
                holdMaxS * 1_000L, soak, classPath, configLines, NetworkMode.parse(network));
    }

    @Override
    public Integer call() throws Exception {
        if (!recheck.isEmpty()) {
            return recheck();
        }
        List<Flavour> flavours;
        List<FaultKind> kinds;
        Duration faultFor;
        try {
            flavours = flavour.equalsIgnoreCase("both") ? List.of(Flavour.WARDEN, Flavour.APACHE)
                    : List.of(Flavour.parse(flavour));
            kinds = FaultKind.parseList(faults);
            if (minutes != null && seconds != null) {
                throw new IllegalArgumentException("give --minutes or --seconds, not both");
            }
            faultFor = seconds != null ? Duration.ofSeconds(seconds) : Duration.ofMinutes(minutes != null ? minutes : 5);
            for (String line : configLines) {
                if (!line.contains("=")) {
                    throw new IllegalArgumentException("--set takes key=value, was '" + line + "'");
                }
            }
            if (runs < 1) {
                throw new IllegalArgumentException("--runs must be at least 1, was " + runs);
            }
            if (tickMs < 50) {
                throw new IllegalArgumentException("--tick-ms must be at least 50, was " + tickMs);
            }
            // the same checks a run makes, before anything is started or written
            options(flavours.get(0), faultFor, 0, kinds, out, "").network()
                    .resolve(NetNamespaces::unavailableBecause);
        } catch (IllegalArgumentException | IllegalStateException e) {
            System.err.println("warden chaos: " + e.getMessage());
            return 2;
        }
        long firstSeed = seed != null ? seed : System.currentTimeMillis() % 1_000_000;
        Path outDir = out.toAbsolutePath().normalize();
        Files.createDirectories(outDir);
        List<Long> killed = Leftovers.killUnder(outDir);
        if (!killed.isEmpty()) {
            System.out.println("chaos: killed " + killed.size() + " member processes left by an earlier killed run: "
                    + killed);
        }
        String classPath = Arrays.stream(ManagementFactory.getRuntimeMXBean().getClassPath().split(File.pathSeparator))
                .map(p -> Path.of(p).toAbsolutePath().toString()).collect(Collectors.joining(File.pathSeparator));
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        Path batchDir = outDir.resolve(stamp);
        List<RunResult> results = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            for (Flavour f : flavours) {
                long runSeed = firstSeed + i;
                Path runDir = batchDir.resolve(f.name().toLowerCase() + "-seed" + runSeed);
                Files.createDirectories(runDir);
                RunOptions options = options(f, faultFor, runSeed, kinds, runDir, classPath);
                RunResult result = new ChaosRun(options, RunLog.to(System.out)).run();
                HistoryJson.write(result, runDir.resolve("history.json"));
                HtmlReport.write(result, runDir.resolve("report.html"), "history.json");
                System.out.println("chaos: report " + runDir.resolve("report.html"));
                results.add(result);
                Summary.write(results, batchDir);
            }
        }
        long anomalies = results.stream().mapToLong(RunResult::anomalyCount).sum();
        System.out.println("chaos: " + results.size() + " runs, " + anomalies + " anomalies; summary "
                + batchDir.resolve("index.html"));
        return anomalies == 0 ? 0 : 1;
    }
}
