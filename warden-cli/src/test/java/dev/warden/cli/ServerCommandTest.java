package dev.warden.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.server.config.ConfigException;
import dev.warden.server.config.ServerConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ServerCommandTest {
    private final RecordingLauncher launcher = new RecordingLauncher();
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(ServerLauncher serverLauncher, String... args) {
        CommandLine cli = Main.commandLine(serverLauncher, new ImmediateStop());
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    private int run(String... args) {
        return run(launcher, args);
    }

    @Test
    void withoutOptionsServesTheDefaultsAndStopsCleanly() {
        assertEquals(0, run("server"));
        assertEquals(List.of(ServerConfig.builder().build()), launcher.started);
        assertEquals("Warden serving on 127.0.0.1:2181, data in ./data\nWarden stopped\n", out.toString());
        assertEquals(1, launcher.closeCount);
        assertEquals("", err.toString());
    }

    @Test
    void optionsOverrideTheConfigFile(@TempDir Path dir) throws IOException {
        Path cfg = dir.resolve("zoo.cfg");
        Files.writeString(cfg, "tickTime=500\nclientPort=2999\ndataDir=/from/file\n");
        assertEquals(0, run("server", "--config", cfg.toString(), "--port", "0", "--data-dir", "rel/dir"));
        ServerConfig used = launcher.started.get(0);
        assertEquals(500, used.tickTimeMs());
        assertEquals(0, used.clientPort());
        assertEquals(Path.of("rel/dir"), used.dataDir());
        assertEquals(Path.of("rel/dir"), used.dataLogDir());
        assertTrue(out.toString().startsWith("Warden serving on 127.0.0.1:0, data in rel/dir\n"), out.toString());
    }

    @Test
    void configFileValuesAreUsedWhenNotOverridden(@TempDir Path dir) throws IOException {
        Path cfg = dir.resolve("zoo.cfg");
        Files.writeString(cfg, "clientPort=2999\nmaxWatchesPerSession=10\n");
        assertEquals(0, run("server", "--config", cfg.toString()));
        assertEquals(2999, launcher.started.get(0).clientPort());
        assertEquals(10, launcher.started.get(0).maxWatchesPerSession());
    }

    @Test
    void badConfigValueExitsWithTwoAndStartsNothing(@TempDir Path dir) throws IOException {
        Path cfg = dir.resolve("zoo.cfg");
        Files.writeString(cfg, "tickTime=soon\n");
        assertEquals(2, run("server", "--config", cfg.toString()));
        assertEquals("tickTime='soon' is invalid: must be a positive number of milliseconds\n", err.toString());
        assertEquals(List.of(), launcher.started);
        assertEquals("", out.toString());
    }

    @Test
    void missingConfigFileExitsWithTwo(@TempDir Path dir) {
        assertEquals(2, run("server", "--config", dir.resolve("absent.cfg").toString()));
        assertTrue(err.toString().contains("absent.cfg does not exist"), err.toString());
    }

    @Test
    void portOutOfRangeExitsWithTwo() {
        assertEquals(2, run("server", "--port", "70000"));
        assertTrue(err.toString().startsWith("clientPort='70000' is invalid"), err.toString());
    }

    @Test
    void nonNumericPortIsAUsageErrorWithExitTwo() {
        assertEquals(2, run("server", "--port", "many"));
        assertTrue(err.toString().contains("--port"), err.toString());
        assertEquals(List.of(), launcher.started);
    }

    @Test
    void aConfigurationRefusedAtStartupExitsWithTwoAndOneLine() {
        ServerLauncher refusing = config -> {
            throw new ConfigException("dataDir", "dataDir=./data holds Apache ZooKeeper data");
        };
        assertEquals(2, run(refusing, "server"));
        assertEquals("dataDir=./data holds Apache ZooKeeper data\n", err.toString());
        assertEquals("", out.toString());
    }

    @Test
    void failureToStartExitsWithOne() {
        ServerLauncher failing = config -> {
            throw new IOException("Address already in use");
        };
        assertEquals(1, run(failing, "server"));
        assertEquals("cannot start the server: Address already in use\n", err.toString());
    }

    @Test
    void aFileTheServerMayNotUseIsNamedWithTheReason() {
        ServerLauncher denied = config -> {
            throw new java.nio.file.AccessDeniedException("/var/lib/warden/snapshots");
        };
        assertEquals(1, run(denied, "server"));
        assertTrue(err.toString().startsWith("cannot start the server: permission denied on /var/lib/warden/snapshots:"),
                err.toString());
    }
}
