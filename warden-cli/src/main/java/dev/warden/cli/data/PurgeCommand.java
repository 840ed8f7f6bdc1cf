package dev.warden.cli.data;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code warden purge}: ZooKeeper's PurgeTxnLog for a stopped server. The directory is first
 * recovered as the server recovers it (so data that proves no state is refused, not purged),
 * then the server's own autopurge rule runs: keep the newest COUNT valid snapshots, delete the
 * older ones, and delete only the log segments wholly before the oldest snapshot kept, so every
 * kept snapshot can still be replayed to the log's end.
 */
@Command(name = "purge", mixinStandardHelpOptions = true,
        description = {"Delete old snapshots and log segments of a stopped server, keeping the newest COUNT",
                "snapshots and the log needed to recover from each (the server's autopurge rule).",
                "Refused while a server uses the directory, or when its data proves no state."})
final class PurgeCommand implements Callable<Integer> {
    /** As ZooKeeper's PurgeTxnLog and autopurge.snapRetainCount: fewer would leave too little to fall back on. */
    static final int MIN_RETAIN_COUNT = 3;

    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "DATA_DIR", description = "The server's dataDir.")
    private Path dataDir;

    @Option(names = "--data-log-dir", paramLabel = "DIR", description = "The server's dataLogDir, if not DATA_DIR.")
    private Path dataLogDir;

    @Option(names = "-n", paramLabel = "COUNT", required = true,
            description = "How many of the newest snapshots to keep (at least " + MIN_RETAIN_COUNT + ").")
    private int retainCount;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (retainCount < MIN_RETAIN_COUNT) {
            err.println("-n " + retainCount + ": keep at least " + MIN_RETAIN_COUNT + " snapshots, as ZooKeeper's"
                    + " PurgeTxnLog and autopurge.snapRetainCount require");
            err.flush();
            return ToolRefusal.EXIT_STATUS;
        }
        try (OfflineDataDir data = OfflineDataDir.open(dataDir, dataLogDir, "warden purge")) {
            List<Path> segmentsBefore = data.log().segmentFiles();
            List<Path> snapshots = data.snapshots().purge(retainCount);
            OptionalLong oldestKept = data.snapshots().oldestZxid();
            if (oldestKept.isPresent()) {
                data.log().purgeUpTo(oldestKept.getAsLong());
            }
            List<Path> segmentsAfter = data.log().segmentFiles();
            snapshots.forEach(file -> out.println("deleted " + file));
            segmentsBefore.stream().filter(file -> !segmentsAfter.contains(file))
                    .forEach(file -> out.println("deleted " + file));
            out.println("kept " + data.snapshots().snapshotFiles().size() + " snapshots and " + segmentsAfter.size()
                    + " log segments" + (oldestKept.isPresent() ? " (the log after zxid "
                    + TxnView.hex(oldestKept.getAsLong()) + ")" : ""));
            out.flush();
            return 0;
        } catch (ToolRefusal | dev.warden.server.recovery.UnprovableStateException refused) {
            err.println(refused.getMessage());
            err.flush();
            return ToolRefusal.EXIT_STATUS;
        } catch (IOException e) {
            err.println("warden purge failed: " + e.getMessage());
            err.flush();
            return 1;
        }
    }
}
