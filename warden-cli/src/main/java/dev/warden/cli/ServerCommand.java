package dev.warden.cli;

import dev.warden.server.config.ConfigException;
import dev.warden.server.config.ConfigLoader;
import dev.warden.server.config.ServerConfig;
import dev.warden.server.recovery.UnprovableStateException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code warden server}: runs a standalone server or an ensemble member until SIGTERM or SIGINT. */
@Command(name = "server", mixinStandardHelpOptions = true, versionProvider = VersionLine.class,
        description = {"Run a Warden server: standalone, or an ensemble member when the config has server.N lines",
                "or a dynamicConfigFile (this member is the one named by the myid file in dataDir).",
                "Without --config it serves on 127.0.0.1:2181 with its data in ./data."})
final class ServerCommand implements Callable<Integer> {
    static final int EXIT_START_FAILED = 1;
    static final int EXIT_CONFIG_ERROR = 2;

    @Spec
    private CommandSpec spec;

    @Option(names = "--config", paramLabel = "FILE",
            description = "A ZooKeeper-style zoo.cfg (see docs/CONFIG.md).")
    private Path configFile;

    @Option(names = "--port", paramLabel = "N", description = "Client port; overrides clientPort.")
    private Integer clientPort;

    @Option(names = "--data-dir", paramLabel = "DIR",
            description = "Data directory; overrides dataDir. Relative paths resolve against the current directory.")
    private Path dataDir;

    @Option(names = "--discard-unprovable",
            description = {"Standalone only, for one start after the server refused its data: recover to the last",
                    "state the data proves and move everything after it aside (writes after it are lost).",
                    "See docs/STORAGE.md."})
    private boolean discardUnprovable;

    private final ServerLauncher launcher;
    private final StopSignal stopSignal;

    ServerCommand(ServerLauncher launcher, StopSignal stopSignal) {
        this.launcher = launcher;
        this.stopSignal = stopSignal;
    }

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ServerConfig config;
        try {
            config = resolveConfig();
        } catch (ConfigException e) {
            err.println(e.getMessage());
            err.flush();
            return EXIT_CONFIG_ERROR;
        }
        RunningServer server;
        try {
            server = launcher.start(config);
        } catch (ConfigException | UnprovableStateException refused) {
            // refusals found at startup (a data directory ZooKeeper wrote, data that proves no
            // state) need the operator, as a bad configuration does
            err.println(refused.getMessage());
            err.flush();
            return EXIT_CONFIG_ERROR;
        } catch (IOException | java.io.UncheckedIOException e) {
            err.println("cannot start the server: " + StartupFailure.describe(e));
            err.flush();
            return EXIT_START_FAILED;
        }
        stopSignal.onStop(() -> {
            server.close();
            out.println("Warden stopped");
            out.flush();
        });
        if (config.isEnsemble()) {
            out.println("Warden member " + config.serverId() + " of " + config.members().size()
                    + " listening for clients on " + server.connectString() + " (clients are served once it has"
                    + " joined a leader), data in " + config.dataDir());
        } else {
            out.println("Warden serving on " + server.connectString() + ", data in " + config.dataDir());
        }
        out.flush();
        stopSignal.await();
        return 0;
    }

    /** The config file (or the defaults) with the command-line overrides applied, validated. */
    ServerConfig resolveConfig() {
        ServerConfig base = configFile == null ? ConfigLoader.fromSystemProperties() : ConfigLoader.load(configFile);
        ServerConfig.Builder builder = base.toBuilder();
        if (clientPort != null) {
            builder.clientPort(clientPort);
        }
        if (dataDir != null) {
            builder.dataDir(dataDir);
        }
        if (discardUnprovable) {
            builder.discardUnprovable(true);
        }
        return builder.build();
    }
}
