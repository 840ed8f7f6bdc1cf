package dev.warden.cli.zookeeper;

import dev.warden.cli.cluster.FreePorts;
import dev.warden.server.net.FourLetterWordClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A standalone server of one Apache ZooKeeper release in its own JVM, started as zkServer.sh
 * starts it ({@code ZooKeeperServerMain zoo.cfg}) on that release's own jars, which the build
 * copies into {@code target/zookeeper-releases/<version>/}: the test JVM's ZooKeeper is another
 * version. Its output goes to {@code server.out} beside its zoo.cfg.
 */
final class ZooKeeperReleaseProcess implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    private static final int PROBE_TIMEOUT_MS = 500;
    private static final long POLL_INTERVAL_MS = 50;

    private final String version;
    private final Process process;
    private final int clientPort;
    private final Path outputFile;

    private ZooKeeperReleaseProcess(String version, Process process, int clientPort, Path outputFile) {
        this.version = version;
        this.process = process;
        this.clientPort = clientPort;
        this.outputFile = outputFile;
    }

    /**
     * Starts release {@code version} on {@code dataDir} and waits until it serves.
     *
     * @param jarsDir    the release's jars, and nothing else
     * @param snapCount  ZooKeeper's snapCount: it rolls its log and snapshots after snapCount/2 to
     *                   snapCount transactions
     */
    static ZooKeeperReleaseProcess start(String version, Path jarsDir, Path dir, Path dataDir, int snapCount)
            throws IOException, InterruptedException {
        if (!Files.isRegularFile(jarsDir.resolve("zookeeper-" + version + ".jar"))) {
            throw new IllegalStateException(jarsDir + " does not hold zookeeper-" + version + ".jar: the build copies"
                    + " each release there (warden-cli's pom, execution copy-zookeeper-releases); run the test through"
                    + " Maven");
        }
        int clientPort = FreePorts.pick(1).get(0);
        Path config = dir.resolve("zoo.cfg");
        Files.writeString(config, String.join("\n",
                "tickTime=2000",
                "dataDir=" + dataDir,
                "clientPort=" + clientPort,
                "clientPortAddress=127.0.0.1",
                "snapCount=" + snapCount,
                // KiB: keeps the preallocated log file small; ZooKeeper grows it as needed
                "preAllocSize=512",
                "admin.enableServer=false",
                "4lw.commands.whitelist=srvr",
                ""), StandardCharsets.UTF_8);
        Path outputFile = dir.resolve("server.out");
        String java = ProcessHandle.current().info().command().orElseThrow();
        Process process = new ProcessBuilder(List.of(java, "-Xmx256m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                // container and TTL nodes, which the tree holds
                "-Dzookeeper.extendedTypesEnabled=true",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-cp", jarsDir.toAbsolutePath() + "/*",
                "org.apache.zookeeper.server.ZooKeeperServerMain", config.toString()))
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(outputFile.toFile())
                .start();
        ZooKeeperReleaseProcess server = new ZooKeeperReleaseProcess(version, process, clientPort, outputFile);
        server.awaitServing();
        return server;
    }

    /** srvr names the running version once the server has loaded its data and serves. */
    private void awaitServing() throws IOException, InterruptedException {
        long deadlineNs = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadlineNs) {
            if (!process.isAlive()) {
                throw new IllegalStateException("ZooKeeper " + version + " exited with " + process.exitValue() + ":\n"
                        + output());
            }
            try {
                String srvr = FourLetterWordClient.send("127.0.0.1", clientPort, "srvr", PROBE_TIMEOUT_MS);
                if (srvr.startsWith("Zookeeper version: " + version + "-")) {
                    return;
                }
                if (srvr.startsWith("Zookeeper version: ")) {
                    throw new IllegalStateException("port " + clientPort + " serves another ZooKeeper: " + srvr);
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(POLL_INTERVAL_MS);
        }
        process.destroyForcibly();
        throw new IllegalStateException("ZooKeeper " + version + " did not serve within " + START_TIMEOUT + ":\n"
                + output());
    }

    String connectString() {
        return "127.0.0.1:" + clientPort;
    }

    String output() throws IOException {
        return Files.readString(outputFile, StandardCharsets.UTF_8);
    }

    /** SIGTERM, as zkServer.sh stop sends; waits for the JVM to exit. */
    void terminate() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            process.waitFor();
            throw new IllegalStateException("ZooKeeper " + version + " ignored SIGTERM for " + STOP_TIMEOUT);
        }
    }

    /** SIGKILL: no shutdown code runs; the files hold whatever ZooKeeper had written to them. */
    void kill9() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill9();
        }
    }
}
