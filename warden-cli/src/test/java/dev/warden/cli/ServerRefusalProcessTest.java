package dev.warden.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code warden server} run as its own JVM, as an operator runs it, on configurations it must
 * refuse: it exits with status 2 and says why in one line, and starts nothing.
 */
class ServerRefusalProcessTest {
    private static final long EXIT_TIMEOUT_SECONDS = 60;

    @TempDir
    Path dir;

    private record Exit(int status, String stderr) {
    }

    /** Runs {@code warden server --config zooCfg} in a fresh JVM from {@code dir} and waits for it to exit. */
    private Exit runServer(Path zooCfg) throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElseThrow();
        Path stderr = dir.resolve("stderr.log");
        Process process = new ProcessBuilder(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-cp", ManagementFactory.getRuntimeMXBean().getClassPath(),
                "dev.warden.cli.Main", "server", "--config", zooCfg.toString())
                .directory(dir.toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(stderr.toFile())
                .start();
        if (!process.waitFor(EXIT_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new AssertionError("warden server did not exit within " + EXIT_TIMEOUT_SECONDS + " s; stderr: "
                    + Files.readString(stderr));
        }
        return new Exit(process.exitValue(), Files.readString(stderr, StandardCharsets.UTF_8));
    }

    private Path dataDirWithMyid() throws IOException {
        Path dataDir = Files.createDirectories(dir.resolve("data"));
        Files.writeString(dataDir.resolve("myid"), "1\n");
        return dataDir;
    }

    private static void assertRefused(Exit exit, String startsWith, String says) {
        assertEquals(2, exit.status(), exit.stderr());
        List<String> lines = exit.stderr().lines().toList();
        assertEquals(1, lines.size(), "one line: " + exit.stderr());
        assertTrue(lines.get(0).startsWith(startsWith), exit.stderr());
        assertTrue(lines.get(0).contains(says), exit.stderr());
    }

    @Test
    void groupLinesLeavingAParticipantOutStopTheServerWithStatusTwo() throws Exception {
        Path dataDir = dataDirWithMyid();
        Path zooCfg = Files.writeString(dir.resolve("zoo.cfg"), String.join("\n",
                "dataDir=" + dataDir, "clientPort=0",
                "server.1=127.0.0.1:1:2", "server.2=127.0.0.1:3:4", "server.3=127.0.0.1:5:6",
                "group.1=1:2", ""));
        assertRefused(runServer(zooCfg), "server.3 is a participant in no group",
                "every participant must be in exactly one group");
        assertEquals(List.of(dataDir, dataDir.resolve("myid")), listFiles(dataDir), "nothing written");
    }

    @Test
    void weightLinesWithoutGroupsInTheDynamicConfigFileStopTheServerWithStatusTwo() throws Exception {
        Path dataDir = dataDirWithMyid();
        Path dynamic = Files.writeString(dir.resolve("zoo.cfg.dynamic.100000000"), String.join("\n",
                "server.1=127.0.0.1:1:2", "server.2=127.0.0.1:3:4", "server.3=127.0.0.1:5:6",
                "weight.1=2", "weight.2=1", "weight.3=1", ""));
        Path zooCfg = Files.writeString(dir.resolve("zoo.cfg"), String.join("\n",
                "dataDir=" + dataDir, "clientPort=0", "standaloneEnabled=false", "dynamicConfigFile=" + dynamic, ""));
        assertRefused(runServer(zooCfg), "weight lines in ", "but no group lines");
        assertEquals(List.of(dataDir, dataDir.resolve("myid")), listFiles(dataDir), "nothing written");
    }

    @Test
    void aZooKeeperDataDirectoryStopsTheServerWithStatusTwoAndIsLeftAlone() throws Exception {
        Path dataDir = Files.createDirectories(dir.resolve("zookeeper-data"));
        Path version2 = Files.createDirectories(dataDir.resolve("version-2"));
        Files.write(version2.resolve("snapshot.0"), new byte[] {1, 2, 3});
        Files.write(version2.resolve("log.1"), new byte[] {4, 5, 6});
        List<Path> before = listFiles(dataDir);
        Path zooCfg = Files.writeString(dir.resolve("zoo.cfg"), "dataDir=" + dataDir + "\nclientPort=0\n");

        Exit exit = runServer(zooCfg);
        assertEquals(2, exit.status(), exit.stderr());
        List<String> lines = exit.stderr().lines().toList();
        assertEquals(1, lines.size(), "one line: " + exit.stderr());
        assertTrue(lines.get(0).startsWith("dataDir=" + dataDir + " holds Apache ZooKeeper data (" + version2),
                exit.stderr());
        assertTrue(lines.get(0).contains("Warden does not read ZooKeeper's format"), exit.stderr());
        assertTrue(lines.get(0).contains("warden import --from-zookeeper " + dataDir + " --data-dir NEW_DIR"), exit.stderr());
        assertEquals(before, listFiles(dataDir), "nothing created or written in ZooKeeper's directory");
    }

    private static List<Path> listFiles(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            return paths.sorted().toList();
        }
    }
}
