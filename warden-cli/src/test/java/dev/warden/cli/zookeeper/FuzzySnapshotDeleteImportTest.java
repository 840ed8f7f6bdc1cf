package dev.warden.cli.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.cli.data.ToolRun;
import dev.warden.cli.data.TreeImage;
import dev.warden.server.WardenServer;
import dev.warden.server.config.ServerConfig;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.apache.zookeeper.server.DataTree;
import org.apache.zookeeper.server.Request;
import org.apache.zookeeper.server.persistence.FileTxnLog;
import org.apache.zookeeper.server.persistence.FileTxnSnapLog;
import org.apache.zookeeper.txn.CreateTxn;
import org.apache.zookeeper.txn.DeleteTxn;
import org.apache.zookeeper.txn.TxnHeader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A delete that ran while ZooKeeper was writing a (fuzzy) snapshot, after the snapshot had taken
 * the parent and before it reached the child: the snapshot holds the parent with its old pzxid
 * and no child. ZooKeeper's replay of the delete moves the parent's pzxid even though the child
 * is gone, and the digest ZooKeeper recorded in the snapshot is that of the tree after the delete;
 * the import must rebuild the same tree, or it refuses a good data directory as damaged.
 */
class FuzzySnapshotDeleteImportTest {
    private static final long TIME_MS = 1_700_000_000_000L;

    @TempDir
    Path dir;

    @Test
    void aDeleteDuringTheSnapshotLeavesTheParentAsZooKeeperDoes() throws Exception {
        Path zkData = dir.resolve("zookeeper");
        DataTree tree = new DataTree();
        apply(tree, 1, ZooDefs.OpCode.create, new CreateTxn("/a", bytes("a"), ZooDefs.Ids.OPEN_ACL_UNSAFE, false, -1));
        apply(tree, 2, ZooDefs.OpCode.create, new CreateTxn("/a/b", bytes("b"), ZooDefs.Ids.OPEN_ACL_UNSAFE, false, -1));
        DeleteTxn delete = new DeleteTxn("/a/b");
        apply(tree, 3, ZooDefs.OpCode.delete, delete);
        Stat after = new Stat();
        tree.getData("/a", after, null);
        assertEquals(3, after.getPzxid(), "ZooKeeper's delete moves the parent's pzxid");

        // The snapshot began at zxid 2 and wrote /a before the delete; the child was gone by the
        // time it got there; the digest it ends with is the tree's latest: zxid 3, after the delete.
        tree.getNode("/a").stat.setPzxid(2);
        tree.lastProcessedZxid = 2;
        FileTxnSnapLog files = new FileTxnSnapLog(zkData.toFile(), zkData.toFile());
        files.save(tree, new ConcurrentHashMap<>(), false);
        files.close();
        FileTxnLog log = new FileTxnLog(new File(zkData.toFile(), "version-2"));
        log.append(new Request(header(3, ZooDefs.OpCode.delete), delete, null));
        log.commit();
        log.close();

        Path data = dir.resolve("warden");
        ToolRun imported = ToolRun.of("import", "--from-zookeeper", zkData.toString(), "--data-dir", data.toString());
        assertEquals(0, imported.exitCode(), imported.toString());
        assertTrue(imported.out().contains(" 1 of ZooKeeper's digests checked, all equal"), imported.out());
        try (WardenServer warden = WardenServer.start(ServerConfig.builder().dataDir(data).clientPort(0)
                .clientPortAddress("127.0.0.1").build());
             ZooKeeper zk = TreeImage.connect(warden.connectString())) {
            Stat parent = new Stat();
            zk.getData("/a", false, parent);
            assertEquals(3, parent.getPzxid(), "the parent as ZooKeeper's replay leaves it");
            assertEquals(null, zk.exists("/a/b", false));
        }
    }

    private static void apply(DataTree tree, long zxid, int type, org.apache.jute.Record txn) {
        tree.processTxn(header(zxid, type), txn, null);
    }

    private static TxnHeader header(long zxid, int type) {
        return new TxnHeader(0, 0, zxid, TIME_MS + zxid, type);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
