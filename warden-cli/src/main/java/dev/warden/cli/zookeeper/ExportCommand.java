package dev.warden.cli.zookeeper;

import dev.warden.cli.data.EmptyTarget;
import dev.warden.cli.data.OfflineDataDir;
import dev.warden.cli.data.ToolRefusal;
import dev.warden.server.log.EpochFiles;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code warden export --to-zookeeper DIR --data-dir WARDEN}: the way back. Recovers a stopped
 * Warden server's data directory as the server would and writes a ZooKeeper data directory
 * holding the same state as one snapshot ({@code version-2/snapshot.<zxid>}, with ZooKeeper's
 * digest), plus the member's epochs and myid; a ZooKeeper server started on it serves the tree.
 */
@Command(name = "export", mixinStandardHelpOptions = true,
        description = {"Make an Apache ZooKeeper data directory from a stopped Warden server's data directory",
                "(the same tree, sessions, epochs and myid). DIR must be empty or new. See docs/MIGRATING.md."})
public final class ExportCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--to-zookeeper", paramLabel = "DIR", required = true,
            description = "The new ZooKeeper dataDir (version-2/ is made in it).")
    private Path zookeeperDataDir;

    @Option(names = "--data-dir", paramLabel = "DIR", required = true, description = "The Warden server's dataDir.")
    private Path dataDir;

    @Option(names = "--data-log-dir", paramLabel = "DIR", description = "The Warden server's dataLogDir, if not its dataDir.")
    private Path dataLogDir;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        boolean existed = Files.exists(zookeeperDataDir);
        try {
            EmptyTarget.require(zookeeperDataDir, "--to-zookeeper", "warden export");
        } catch (IOException refused) {
            err.println(refused.getMessage());
            err.flush();
            return ToolRefusal.EXIT_STATUS;
        }
        try (OfflineDataDir warden = OfflineDataDir.open(dataDir, dataLogDir, "warden export")) {
            Path versionDir = zookeeperDataDir.resolve(ZkDataDir.VERSION_DIR);
            Files.createDirectories(versionDir);
            Path snapshot = ZkSnapshotWriter.write(versionDir, warden.state());
            copyEpoch(EpochFiles.ACCEPTED_EPOCH, versionDir);
            copyEpoch(EpochFiles.CURRENT_EPOCH, versionDir);
            Path myid = dataDir.resolve("myid");
            if (Files.isRegularFile(myid)) {
                Files.copy(myid, zookeeperDataDir.resolve("myid"));
            }
            out.println("exported " + dataDir + " into " + snapshot + ": " + warden.state().tree().nodeCount()
                    + " nodes, " + warden.state().sessions().size() + " sessions at zxid 0x"
                    + Long.toHexString(warden.state().tree().lastAppliedZxid()));
            out.flush();
            return 0;
        } catch (ToolRefusal | dev.warden.server.recovery.UnprovableStateException refused) {
            err.println(refused.getMessage());
            err.flush();
            return ToolRefusal.EXIT_STATUS;
        } catch (IOException | UncheckedIOException e) {
            EmptyTarget.clear(zookeeperDataDir, !existed);
            err.println("warden export failed, nothing exported: " + e.getMessage());
            err.flush();
            return 1;
        }
    }

    /** ZooKeeper keeps its epoch files, a decimal number each, beside its snapshots. */
    private void copyEpoch(String name, Path versionDir) throws IOException {
        Path file = dataDir.resolve(name);
        if (Files.isRegularFile(file)) {
            String value = Files.readString(file, StandardCharsets.US_ASCII).trim();
            Files.writeString(versionDir.resolve(name), value, StandardCharsets.US_ASCII);
        }
    }
}
