package dev.warden.cli.data;

import dev.warden.server.recovery.DataDirLock;
import dev.warden.server.recovery.DataLayout;
import dev.warden.state.txn.Txn;
import dev.warden.storage.LogFiles;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code warden restore}: makes a new data directory from a snapshot file, for a server to start
 * on. Only into an empty (or new) directory. A snapshot a running server wrote may be fuzzy
 * (changes after its start went on while it was written); it is made exact by replaying the
 * log it came with up to the zxid it had reached, so that log must be given with {@code --log}.
 * Snapshots from {@code warden snapshot take} are exact and need none.
 */
@Command(name = "restore", mixinStandardHelpOptions = true,
        description = {"Make a new data directory from a snapshot: the server started on it serves that state.",
                "DATA_DIR must be empty or new. A fuzzy snapshot (written by a running server) also needs",
                "the log it came with (--log); one from 'warden snapshot take' needs nothing else."})
final class RestoreCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SNAPSHOT", description = "A snapshot file (snapshot.<zxid>).")
    private Path snapshotFile;

    @Option(names = "--data-dir", paramLabel = "DIR", required = true, description = "The new data directory.")
    private Path dataDir;

    @Option(names = "--data-log-dir", paramLabel = "DIR", description = "The new dataLogDir, if not the data directory.")
    private Path dataLogDir;

    @Option(names = "--log", paramLabel = "LOG",
            description = "The log the snapshot came with (a data or log directory), to make a fuzzy snapshot exact.")
    private Path sourceLog;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        DataLayout layout = new DataLayout(dataDir, dataLogDir == null ? dataDir : dataLogDir);
        boolean dataDirExisted = Files.exists(dataDir);
        boolean logDirExisted = Files.exists(layout.dataLogDir());
        try {
            if (!Files.isRegularFile(snapshotFile)) {
                throw new ToolRefusal(snapshotFile + " is not a file: name the snapshot file to restore");
            }
            EmptyTarget.require(dataDir, "--data-dir", "warden restore");
            if (dataLogDir != null) {
                EmptyTarget.require(dataLogDir, "--data-log-dir", "warden restore");
            }
            LoadedSnapshot snapshot = LoadedSnapshot.load(snapshotFile);
            if (snapshot.isFuzzy()) {
                makeExact(snapshot);
            }
            try (DataDirLock lock = OfflineDataDir.acquire(dataDir, "warden restore")) {
                Path written = WardenDataWriter.write(layout, snapshot.state());
                out.println("restored " + snapshotFile + " into " + dataDir + " (" + written.getFileName() + ": zxid "
                        + TxnView.hex(snapshot.state().tree().lastAppliedZxid()) + ", "
                        + snapshot.state().tree().nodeCount() + " nodes, " + snapshot.state().sessions().size()
                        + " sessions); a server started with dataDir=" + dataDir + " serves it");
            }
            out.flush();
            return 0;
        } catch (ToolRefusal refused) {
            err.println(refused.getMessage());
            err.flush();
            return ToolRefusal.EXIT_STATUS;
        } catch (IOException | RuntimeException e) {
            EmptyTarget.clear(dataDir, !dataDirExisted);
            if (dataLogDir != null) {
                EmptyTarget.clear(dataLogDir, !logDirExisted);
            }
            err.println("warden restore failed, nothing restored: " + e.getMessage());
            err.flush();
            return 1;
        }
    }

    /** Replays the source log's records after the snapshot's start up to the zxid it had reached. */
    private void makeExact(LoadedSnapshot snapshot) throws IOException {
        String fuzzy = snapshotFile + " is fuzzy: it was started at zxid " + TxnView.hex(snapshot.zxid())
                + " and finished at " + TxnView.hex(snapshot.reachedZxid()) + ", so it is exact only with the log"
                + " records up to there";
        if (sourceLog == null) {
            throw new ToolRefusal(fuzzy + ". Give the log it came with (--log DATA_DIR), or restore a snapshot"
                    + " from 'warden snapshot take', which is exact");
        }
        List<LogFiles.Segment> segments = LogDumpCommand.segmentsOf(sourceLog);
        for (LogFiles.Segment segment : segments) {
            if (segment.recordCount() == 0 || segment.lastZxid() <= snapshot.zxid()) {
                continue;
            }
            LogFiles.readRecords(segment, record -> {
                if (record.zxid() > snapshot.reachedZxid()) {
                    return false;
                }
                if (record.zxid() > snapshot.zxid()) {
                    snapshot.state().apply(Txn.decode(record.payload()));
                }
                return true;
            });
        }
        long reached = snapshot.state().tree().lastAppliedZxid();
        if (reached < snapshot.reachedZxid()) {
            throw new ToolRefusal(fuzzy + ", and " + sourceLog + " holds records only up to " + TxnView.hex(reached)
                    + ". Give the log that reaches " + TxnView.hex(snapshot.reachedZxid()));
        }
    }
}
