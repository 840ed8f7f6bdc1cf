package dev.warden.cli.data;

import dev.warden.state.pipeline.StateSnapshots;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code warden snapshot take}: recovers a stopped server's data directory as the server would
 * (newest provable snapshot plus the log after it) and writes a snapshot of that state. Nothing
 * runs meanwhile, so the snapshot is exact (not fuzzy) and can be restored on its own. A running
 * server holds the directory's lock, and the command refuses; a running server writes its own
 * snapshots every snapCount transactions.
 */
@Command(name = "take", mixinStandardHelpOptions = true,
        description = {"Write a snapshot of a stopped server's data directory (recovered as the server would),",
                "exact and restorable on its own. Refused while a server uses the directory."})
final class SnapshotTakeCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "DATA_DIR", description = "The server's dataDir.")
    private Path dataDir;

    @Option(names = "--data-log-dir", paramLabel = "DIR", description = "The server's dataLogDir, if not DATA_DIR.")
    private Path dataLogDir;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try (OfflineDataDir data = OfflineDataDir.open(dataDir, dataLogDir, "warden snapshot take")) {
            long zxid = data.state().tree().lastAppliedZxid();
            Path file = data.snapshots().write(zxid, body -> StateSnapshots.writeBody(data.state(), body));
            out.println("wrote " + file + ": zxid " + TxnView.hex(zxid) + ", " + data.state().tree().nodeCount()
                    + " nodes, " + data.state().sessions().size() + " sessions");
            out.flush();
            return 0;
        } catch (ToolRefusal | dev.warden.server.recovery.UnprovableStateException refused) {
            err.println(refused.getMessage());
            err.flush();
            return ToolRefusal.EXIT_STATUS;
        } catch (IOException e) {
            err.println("warden snapshot take failed: " + e.getMessage());
            err.flush();
            return 1;
        }
    }
}
