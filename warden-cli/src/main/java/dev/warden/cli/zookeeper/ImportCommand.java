package dev.warden.cli.zookeeper;

import dev.warden.cli.data.EmptyTarget;
import dev.warden.cli.data.OfflineDataDir;
import dev.warden.cli.data.ToolRefusal;
import dev.warden.cli.data.WardenDataWriter;
import dev.warden.consensus.EpochState;
import dev.warden.server.log.EpochFiles;
import dev.warden.server.recovery.DataDirLock;
import dev.warden.server.recovery.DataLayout;
import dev.warden.storage.SnapshotStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code warden import --from-zookeeper DIR --data-dir NEW}: reads a stopped ZooKeeper server's
 * data directory whole (snapshot, logs, epoch files, myid), checks the rebuilt tree against
 * ZooKeeper's own digests, and only then writes a new Warden data directory holding the same
 * tree, sessions and ephemerals, with the member's epochs and myid. A damaged or half-written
 * ZooKeeper directory is refused with the file and offset, before anything is written.
 */
@Command(name = "import", mixinStandardHelpOptions = true,
        description = {"Make a Warden data directory from a stopped Apache ZooKeeper server's data directory:",
                "the same tree (Stats, ACLs), sessions, ephemerals, epochs and myid, checked against ZooKeeper's",
                "digests. NEW must be empty or new. See docs/MIGRATING.md."})
public final class ImportCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--from-zookeeper", paramLabel = "DIR", required = true,
            description = "ZooKeeper's dataDir (the directory holding version-2/).")
    private Path zookeeperDataDir;

    @Option(names = "--zookeeper-log-dir", paramLabel = "DIR", description = "ZooKeeper's dataLogDir, if not its dataDir.")
    private Path zookeeperLogDir;

    @Option(names = "--data-dir", paramLabel = "NEW", required = true, description = "The new Warden data directory.")
    private Path dataDir;

    @Option(names = "--data-log-dir", paramLabel = "DIR", description = "The new Warden dataLogDir, if not NEW.")
    private Path dataLogDir;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        DataLayout layout = new DataLayout(dataDir, dataLogDir == null ? dataDir : dataLogDir);
        boolean dataDirExisted = Files.exists(dataDir);
        boolean logDirExisted = dataLogDir != null && Files.exists(dataLogDir);
        ZkDataDir.Contents zk;
        try {
            EmptyTarget.require(dataDir, "--data-dir", "warden import");
            if (dataLogDir != null) {
                EmptyTarget.require(dataLogDir, "--data-log-dir", "warden import");
            }
            zk = ZkDataDir.read(zookeeperDataDir, zookeeperLogDir);
        } catch (ToolRefusal refused) {
            return fail(err, refused.getMessage(), ToolRefusal.EXIT_STATUS);
        } catch (IOException e) {
            return fail(err, "cannot import " + zookeeperDataDir + ", nothing written: " + e.getMessage(),
                    ToolRefusal.EXIT_STATUS);
        }
        try (DataDirLock lock = OfflineDataDir.acquire(dataDir, "warden import")) {
            WardenImage.Written written = WardenImage.write(layout.snapshotsDir(), zk.tree(), zk.sessions(),
                    zk.lastZxid());
            SnapshotStore.SnapshotFile check = SnapshotStore.verifyFile(written.file());
            if (!check.isValid()) {
                throw new IOException("the snapshot just written does not verify: " + check.problem().orElseThrow());
            }
            WardenDataWriter.startLogAfter(layout, zk.lastZxid());
            writeEpochs(zk);
            if (zk.myid() != null) {
                Files.writeString(dataDir.resolve("myid"), zk.myid() + "\n", StandardCharsets.US_ASCII);
            }
            for (String note : zk.notes()) {
                out.println("note: " + note);
            }
            long ephemerals = zk.tree().ephemerals().values().stream().mapToLong(java.util.Set::size).sum();
            out.println("imported " + zookeeperDataDir + " into " + dataDir + ": " + written.nodes() + " nodes, "
                    + zk.sessions().size() + " sessions, " + ephemerals + " ephemerals at zxid 0x"
                    + Long.toHexString(zk.lastZxid()) + " (" + (zk.snapshotFile() == null ? "no snapshot"
                    : zk.snapshotFile().getFileName()) + " and " + zk.replayedTxns() + " logged transactions; "
                    + zk.digestsChecked() + " of ZooKeeper's digests checked, all equal)");
            out.flush();
            return 0;
        } catch (ToolRefusal refused) {
            return fail(err, refused.getMessage(), ToolRefusal.EXIT_STATUS);
        } catch (IOException | RuntimeException e) {
            EmptyTarget.clear(dataDir, !dataDirExisted);
            if (dataLogDir != null) {
                EmptyTarget.clear(dataLogDir, !logDirExisted);
            }
            return fail(err, "warden import failed, nothing imported: " + e, 1);
        }
    }

    /**
     * A member's epochs as ZooKeeper kept them. A standalone ZooKeeper keeps none; Warden then
     * writes the epoch of the last zxid, as ZooKeeper itself assumes when its files are missing,
     * so a Warden ensemble made from it never proposes zxids below the imported ones.
     */
    private void writeEpochs(ZkDataDir.Contents zk) throws IOException {
        long zxidEpoch = zk.lastZxid() >>> 32;
        long accepted = Math.max(zk.acceptedEpoch(), zxidEpoch);
        long current = Math.max(zk.currentEpoch(), zxidEpoch);
        EpochFiles.defaults().store(dataDir, new EpochState(accepted, Math.min(current, accepted)));
    }

    private static int fail(PrintWriter err, String message, int status) {
        err.println(message);
        err.flush();
        return status;
    }
}
