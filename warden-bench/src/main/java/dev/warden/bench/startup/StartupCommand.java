package dev.warden.bench.startup;

import dev.warden.bench.BenchMain;
import dev.warden.bench.WorkDirectories;
import dev.warden.cli.cluster.ClusterSpec;
import dev.warden.cli.cluster.Flavour;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code warden bench startup}: how soon a restarted ensemble member serves again, Warden and
 * Apache ZooKeeper in the same run on the same machine with the same JVM options, and the wall
 * time of {@code warden version} through the launcher script and as a bare JVM.
 */
@Command(name = "startup", mixinStandardHelpOptions = true,
        description = {"Time a follower of a running three-member ensemble from its restart until it grants a new",
                "session (Warden, then Apache ZooKeeper, same JVM options), and the wall time of 'warden version'",
                "(the launcher script, and the JVM alone). Prints a Markdown table of medians and ranges."})
public final class StartupCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--rounds", defaultValue = "5", paramLabel = "N",
            description = "Restarts per server (default ${DEFAULT-VALUE}), alternating between the two followers.")
    private int rounds;

    @Option(names = "--znodes", defaultValue = "10000", paramLabel = "N",
            description = "Znodes of 100 bytes loaded before the restarts (default ${DEFAULT-VALUE}).")
    private int znodes;

    @Option(names = "--tick-ms", defaultValue = "2000", paramLabel = "MS",
            description = "tickTime of both ensembles (default ${DEFAULT-VALUE}, ZooKeeper's sample config's).")
    private int tickTimeMs;

    @Option(names = "--jvm-options", paramLabel = "OPTIONS",
            description = "Member JVM options, space-separated (default: the local cluster's, "
                    + "-Xmx192m -XX:+UseSerialGC -XX:TieredStopAtLevel=1).")
    private String jvmOptions;

    @Option(names = "--launcher", defaultValue = "./warden", paramLabel = "FILE",
            description = "The warden launcher script to time (default ${DEFAULT-VALUE}); skipped if missing.")
    private Path launcher;

    @Option(names = "--version-runs", defaultValue = "10", paramLabel = "N",
            description = "Runs of 'warden version' of each kind (default ${DEFAULT-VALUE}).")
    private int versionRuns;

    @Option(names = "--work-dir", paramLabel = "DIR",
            description = "Where the members keep their data (default: a temporary directory, deleted afterwards).")
    private Path workDir;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        String classPath = System.getProperty("java.class.path");
        List<String> options = jvmOptions == null ? ClusterSpec.DEFAULT_JVM_OPTIONS
                : Arrays.asList(jvmOptions.trim().split("\\s+"));
        Path dir = null;
        try {
            dir = workDir != null ? Files.createDirectories(workDir) : Files.createTempDirectory("warden-bench-startup");
            List<Long> warden = StartupBenchmark.restartToServing(Flavour.WARDEN, dir.resolve("warden"), classPath,
                    options, tickTimeMs, znodes, rounds, line -> progress(err, line));
            List<Long> apache = StartupBenchmark.restartToServing(Flavour.APACHE, dir.resolve("apache"), classPath,
                    options, tickTimeMs, znodes, rounds, line -> progress(err, line));
            String java = ProcessHandle.current().info().command().orElse("java");
            List<Long> bareJvm = timeRuns(List.of(java, "-cp", classPath, "dev.warden.cli.Main", "version"));
            List<Long> script = Files.isExecutable(launcher) ? timeRuns(List.of(launcher.toString(), "version")) : null;

            out.println("| measure (ms) | Warden | Apache ZooKeeper |");
            out.println("|---|---|---|");
            out.println("| restarted follower of a 3-member ensemble to a new session, median (range) of " + rounds
                    + " | " + summary(warden) + " | " + summary(apache) + " |");
            if (script != null) {
                out.println("| `" + launcher + " version` wall time, median (range) of " + versionRuns + " | "
                        + summary(script) + " | |");
            }
            out.println("| `java -cp ... dev.warden.cli.Main version` wall time, median (range) of " + versionRuns
                    + " | " + summary(bareJvm) + " | |");
            out.println();
            out.println("Members: " + String.join(" ", options) + ", tickTime " + tickTimeMs + " ms, " + znodes
                    + " znodes of 100 bytes; " + Runtime.getRuntime().availableProcessors() + " cores, Java "
                    + Runtime.version() + ".");
            out.flush();
            return 0;
        } catch (IOException | RuntimeException e) {
            err.println("warden bench startup failed: " + e.getMessage());
            err.flush();
            return BenchMain.EXIT_FAILED;
        } finally {
            if (workDir == null && dir != null) {
                WorkDirectories.deleteTree(dir);
            }
        }
    }

    private static void progress(PrintWriter err, String line) {
        err.println(line);
        err.flush();
    }

    /** Wall milliseconds of each of {@link #versionRuns} runs of {@code command}, which must succeed. */
    private List<Long> timeRuns(List<String> command) throws IOException, InterruptedException {
        List<Long> times = new ArrayList<>();
        for (int i = 0; i < versionRuns; i++) {
            long started = System.nanoTime();
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            byte[] output = process.getInputStream().readAllBytes();
            if (process.waitFor() != 0) {
                throw new IOException(String.join(" ", command) + " failed: " + new String(output));
            }
            times.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
        }
        return times;
    }

    /** "median (min–max)". */
    static String summary(List<Long> times) {
        List<Long> sorted = new ArrayList<>(times);
        sorted.sort(null);
        long median = sorted.size() % 2 == 1 ? sorted.get(sorted.size() / 2)
                : (sorted.get(sorted.size() / 2 - 1) + sorted.get(sorted.size() / 2)) / 2;
        return median + " (" + sorted.get(0) + "–" + sorted.get(sorted.size() - 1) + ")";
    }
}
