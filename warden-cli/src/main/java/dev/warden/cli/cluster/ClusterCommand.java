package dev.warden.cli.cluster;

import dev.warden.cli.StopSignal;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code warden cluster}: a local ensemble of member JVMs on loopback until SIGTERM or SIGINT. */
@Command(name = "cluster", mixinStandardHelpOptions = true,
        description = {"Run a local ensemble, one JVM per member, on free loopback ports.",
                "Each member's zoo.cfg, data and logs go to DIR/member-N. Stopping this command kills the"
                        + " members and keeps their files."})
public final class ClusterCommand implements Callable<Integer> {
    static final int EXIT_BAD_INPUT = 2;
    static final int EXIT_START_FAILED = 1;

    @Spec
    private CommandSpec spec;

    @Option(names = "--dir", required = true, paramLabel = "DIR", description = "Base directory for the members.")
    private Path baseDir;

    @Option(names = "--members", paramLabel = "N", defaultValue = "3", description = "Voting members (default 3).")
    private int participants;

    @Option(names = "--observers", paramLabel = "N", defaultValue = "0", description = "Observers (default 0).")
    private int observers;

    @Option(names = "--flavour", paramLabel = "warden|apache", defaultValue = "warden",
            description = "Which server the members run (default warden).")
    private String flavourName;

    @Option(names = "--classpath", paramLabel = "CP",
            description = "The members' classpath; default: this command's own (enough for warden, not for apache).")
    private String classPath;

    @Option(names = "--tick-time-ms", paramLabel = "MS", defaultValue = "2000", description = "tickTime (default 2000).")
    private int tickTimeMs;

    @Option(names = "--heap", paramLabel = "SIZE", defaultValue = "256m", description = "Each member's -Xmx (default 256m).")
    private String heap;

    @Option(names = "--client-port", paramLabel = "PORT", defaultValue = "0",
            description = "Member N serves clients on PORT+N-1 (default: free ports).")
    private int firstClientPort;

    @Option(names = "--start-timeout-s", paramLabel = "S", defaultValue = "120",
            description = "How long to wait for a quorum (default 120).")
    private int startTimeoutSeconds;

    @Option(names = "--set", paramLabel = "KEY=VALUE",
            description = "A zoo.cfg line added to every member's configuration, e.g. --set fsync.warningthresholdms=50;"
                    + " repeatable.")
    private List<String> configLines = List.of();

    private final StopSignal stopSignal;

    public ClusterCommand(StopSignal stopSignal) {
        this.stopSignal = stopSignal;
    }

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ClusterSpec clusterSpec;
        try {
            if (!heap.matches("\\d+[kKmMgGtT]?")) {
                throw new IllegalArgumentException("--heap " + heap + " is invalid: give a size such as 256m or 2g (it"
                        + " becomes each member's -Xmx)");
            }
            if (firstClientPort < 0 || firstClientPort > 65535 - participants - observers) {
                throw new IllegalArgumentException("--client-port " + firstClientPort + " is invalid: give a port such"
                        + " that every member's (PORT+N-1) is at most 65535, or leave it out for free ports");
            }
            Flavour flavour = Flavour.parse(flavourName);
            String members = classPath != null ? classPath : ManagementFactory.getRuntimeMXBean().getClassPath();
            ClusterSpec.Builder builder = ClusterSpec.builder(flavour, baseDir, members).participants(participants)
                    .observers(observers).tickTimeMs(tickTimeMs)
                    .jvmOptions(List.of("-Xmx" + heap, "-XX:+UseSerialGC"));
            for (String line : configLines) {
                builder.configLine(line);
            }
            clusterSpec = builder.build();
        } catch (IllegalArgumentException e) {
            err.println(e.getMessage());
            err.flush();
            return EXIT_BAD_INPUT;
        }
        LocalCluster cluster;
        int leader;
        try {
            cluster = LocalCluster.create(clusterSpec, firstClientPort);
        } catch (IOException e) {
            err.println("cannot lay out the members under " + baseDir + ": " + e.getMessage());
            err.flush();
            return EXIT_START_FAILED;
        }
        try {
            cluster.startAll();
            leader = cluster.awaitQuorum(Duration.ofSeconds(startTimeoutSeconds));
        } catch (IOException | IllegalStateException e) {
            cluster.close();
            err.println("the ensemble did not start: " + e.getMessage());
            err.flush();
            return EXIT_START_FAILED;
        }
        stopSignal.onStop(() -> {
            try {
                cluster.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            out.println("ensemble stopped; files kept in " + baseDir.toAbsolutePath());
            out.flush();
        });
        out.println(clusterSpec.flavour().name().toLowerCase() + " ensemble of " + clusterSpec.memberCount()
                + " serving on " + cluster.connectString() + ", leader " + leader + ", files in "
                + baseDir.toAbsolutePath());
        for (int id : cluster.ids()) {
            cluster.member(id).adminUrl().ifPresent(url -> out.println("member " + id + " AdminServer on " + url));
        }
        // commands only from a terminal: a pipe (a script, a test runner's) is not this command's to read
        boolean interactive = System.console() != null;
        if (interactive) {
            out.println("type a command: status, restart N, stop N, kill N, start N");
        }
        out.flush();
        ClusterConsole console = new ClusterConsole(cluster, out);
        java.util.concurrent.ScheduledExecutorService watcher = java.util.concurrent.Executors
                .newSingleThreadScheduledExecutor(r -> {
                    Thread thread = new Thread(r, "cluster-watch");
                    thread.setDaemon(true);
                    return thread;
                });
        watcher.scheduleWithFixedDelay(console::reportDeaths, ClusterConsole.WATCH_INTERVAL_MS,
                ClusterConsole.WATCH_INTERVAL_MS, java.util.concurrent.TimeUnit.MILLISECONDS);
        Thread commands = new Thread(() -> console.readCommands(new java.io.BufferedReader(
                new java.io.InputStreamReader(System.in, java.nio.charset.StandardCharsets.UTF_8))), "cluster-commands");
        commands.setDaemon(true);
        if (interactive) {
            commands.start();
        }
        try {
            stopSignal.await();
        } finally {
            watcher.shutdownNow();
        }
        return 0;
    }
}
