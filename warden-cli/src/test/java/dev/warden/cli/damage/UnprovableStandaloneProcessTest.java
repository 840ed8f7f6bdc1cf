package dev.warden.cli.damage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code warden server} as its own JVM on a data directory whose snapshots were damaged at rest
 * and whose first log segment was removed: it refuses to start, naming the files and the ways
 * out, and with {@code --discard-unprovable} starts from what it can prove.
 */
class UnprovableStandaloneProcessTest {
    private static final int NODES = 1_000;

    @TempDir
    Path dir;
    private Path stderrFile;

    @org.junit.jupiter.api.BeforeEach
    void logFile() {
        stderrFile = dir.resolve("stderr.log");
    }

    @Test
    void damagedSnapshotsAndAPurgedStartAreRefusedThenDiscardedOnRequest() throws Exception {
        Path dataDir = dir.resolve("data");
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Path zooCfg = Files.writeString(dir.resolve("zoo.cfg"), String.join("\n", "dataDir=" + dataDir,
                "clientPort=" + port, "snapCount=100", ""));
        Process server = startServing(zooCfg);
        try {
            ZooKeeper zk = connect("127.0.0.1:" + port);
            for (int i = 0; i < NODES; i++) {
                zk.create("/n" + i, new byte[8], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            }
            zk.close();
        } finally {
            server.destroy();
            assertEquals(0, server.waitFor(), "SIGTERM stops the server cleanly");
        }
        assertTrue(DataDamage.snapshots(dataDir).size() >= 3, DataDamage.snapshots(dataDir).toString());
        DataDamage.overwrite64BytesOfEverySnapshot(dataDir);
        Path removed = DataDamage.deleteOldestLogSegment(dataDir);

        Process refused = start(zooCfg);
        assertTrue(refused.waitFor(60, TimeUnit.SECONDS), "it exits");
        String stderr = Files.readString(stderrFile, StandardCharsets.UTF_8);
        assertEquals(2, refused.exitValue(), stderr);
        assertTrue(stderr.startsWith("refusing to start: the data in " + dataDir), stderr);
        assertTrue(stderr.contains("no snapshot is valid"), stderr);
        assertTrue(stderr.contains(DataDamage.snapshots(dataDir).get(0).toString() + " is invalid"), stderr);
        assertTrue(stderr.contains("--discard-unprovable"), stderr);
        assertTrue(Files.notExists(removed));

        Process discarding = startServing(zooCfg, "--discard-unprovable");
        try {
            ZooKeeper zk = connect("127.0.0.1:" + port);
            assertEquals(List.of("zookeeper"), zk.getChildren("/", false), "nothing could be proven");
            zk.close();
        } finally {
            discarding.destroy();
            discarding.waitFor();
        }
        try (var entries = Files.list(dataDir)) {
            assertTrue(entries.anyMatch(p -> p.getFileName().toString().startsWith("log.set-aside-")),
                    "the unprovable log is kept aside");
        }
    }

    private Process start(Path zooCfg, String... extra) throws IOException {
        String java = ProcessHandle.current().info().command().orElseThrow();
        List<String> command = new ArrayList<>(List.of(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-cp", ManagementFactory.getRuntimeMXBean().getClassPath(), "dev.warden.cli.Main", "server",
                "--config", zooCfg.toString()));
        command.addAll(List.of(extra));
        return new ProcessBuilder(command).directory(dir.toFile()).redirectError(stderrFile.toFile()).start();
    }

    /** Starts the server and returns once it says it serves. */
    private Process startServing(Path zooCfg, String... extra) throws IOException, InterruptedException {
        Process process = start(zooCfg, extra);
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8));
        String line = out.readLine();
        if (line == null || !line.startsWith("Warden serving on")) {
            process.destroyForcibly().waitFor();
            throw new AssertionError("the server did not start: " + line + " / "
                    + Files.readString(stderrFile, StandardCharsets.UTF_8));
        }
        return process;
    }

    private static ZooKeeper connect(String connectString) throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(connectString, 10_000, event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        });
        assertTrue(connected.await(20, TimeUnit.SECONDS), "connected");
        return zk;
    }
}
