package dev.warden.cli.crash;

import dev.warden.cli.Main;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The real {@code warden server} command in a child JVM that shares this test JVM's classpath.
 * Its stdout and stderr go to one file per start, so the child never blocks on a full pipe and
 * a failed start leaves its message behind for the assertion.
 */
final class ServerProcess implements AutoCloseable {
    private static final Pattern SERVING = Pattern.compile("Warden serving on (\\S+):(\\d+),");
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final long POLL_INTERVAL_MS = 20;

    private final Process process;
    private final Path outputFile;
    private String connectString;

    private ServerProcess(Process process, Path outputFile) {
        this.process = process;
        this.outputFile = outputFile;
    }

    /** Writes the zoo.cfg the tests use: port 0, a small preallocation step, every 4lw allowed. */
    static Path writeConfig(Path dir, Path dataDir, int snapCount) throws IOException {
        Path config = dir.resolve("zoo.cfg");
        Files.writeString(config, String.join("\n",
                "tickTime=500",
                "dataDir=" + dataDir,
                "clientPort=0",
                "clientPortAddress=127.0.0.1",
                "maxClientCnxns=0",
                "snapCount=" + snapCount,
                // KiB; small steps keep the data end close to the file end without hiding it
                "preAllocSize=256",
                "4lw.commands.whitelist=*",
                ""), StandardCharsets.UTF_8);
        return config;
    }

    /** Launches the child; call {@link #awaitServing()} or {@link #awaitExit()} next. */
    static ServerProcess launch(Path config, Path outputFile) throws IOException {
        String java = ProcessHandle.current().info().command().orElseThrow();
        String classPath = ManagementFactory.getRuntimeMXBean().getClassPath();
        Process process = new ProcessBuilder(List.of(java, "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-cp", classPath, Main.class.getName(), "server", "--config", config.toString()))
                .redirectErrorStream(true)
                .redirectOutput(outputFile.toFile())
                .start();
        return new ServerProcess(process, outputFile);
    }

    /** Starts the child and waits until it serves; fails with the child's output if it exits first. */
    static ServerProcess start(Path config, Path outputFile) throws IOException, InterruptedException {
        ServerProcess server = launch(config, outputFile);
        server.awaitServing();
        return server;
    }

    void awaitServing() throws IOException, InterruptedException {
        long deadlineNs = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadlineNs) {
            Matcher matcher = SERVING.matcher(output());
            if (matcher.find()) {
                connectString = matcher.group(1) + ":" + matcher.group(2);
                return;
            }
            if (!process.isAlive()) {
                throw new IllegalStateException("server exited with " + process.exitValue() + ":\n" + output());
            }
            Thread.sleep(POLL_INTERVAL_MS);
        }
        process.destroyForcibly();
        throw new IllegalStateException("server did not start within " + START_TIMEOUT + ":\n" + output());
    }

    String connectString() {
        return connectString;
    }

    /** Everything the child wrote so far. */
    String output() throws IOException {
        return Files.readString(outputFile, StandardCharsets.UTF_8);
    }

    /** SIGKILL: no shutdown hook, no flush; whatever reached the file system is what is left. */
    void kill9() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    /** SIGTERM through the process handle, then waits for the exit status. */
    int terminate() throws InterruptedException {
        process.toHandle().destroy();
        return awaitExit();
    }

    int awaitExit() throws InterruptedException {
        if (!process.waitFor(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("server did not exit within " + START_TIMEOUT);
        }
        return process.exitValue();
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill9();
        }
    }
}
