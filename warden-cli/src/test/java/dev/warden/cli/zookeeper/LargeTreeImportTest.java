package dev.warden.cli.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.cli.data.ToolRun;
import dev.warden.cli.data.TreeImage;
import dev.warden.server.WardenServer;
import dev.warden.server.config.ServerConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.apache.zookeeper.server.DataTree;
import org.apache.zookeeper.server.persistence.FileTxnSnapLog;
import org.apache.zookeeper.txn.CreateTxn;
import org.apache.zookeeper.txn.TxnHeader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A large ZooKeeper tree, built by ZooKeeper's own DataTree (each create applied as ZooKeeper
 * applies a logged transaction, so its digest is kept) and saved by ZooKeeper's own snapshot
 * code, imports with its digest checked, and Warden serves the same nodes. 100,000 znodes by
 * default; {@code -Dwarden.import.znodes=1000000} for a million (about 30 s more on 2 cores).
 */
class LargeTreeImportTest {
    private static final int CHILDREN_PER_PARENT = 1000;

    @TempDir
    Path dir;

    @Test
    void aLargeTreeImportsWithItsDigestChecked() throws Exception {
        int znodes = Integer.getInteger("warden.import.znodes", 100_000);
        Path zkData = dir.resolve("zookeeper");
        DataTree tree = new DataTree();
        long zxid = 0;
        long time = 1_700_000_000_000L;
        int parents = Math.max(1, znodes / CHILDREN_PER_PARENT);
        for (int p = 0; p < parents; p++) {
            String parent = "/p" + p;
            create(tree, ++zxid, time, parent, p);
            for (int c = 0; c < CHILDREN_PER_PARENT && p * CHILDREN_PER_PARENT + c < znodes; c++) {
                create(tree, ++zxid, time + c, parent + "/c" + c, c);
            }
        }
        tree.lastProcessedZxid = zxid;
        long started = System.nanoTime();
        FileTxnSnapLog files = new FileTxnSnapLog(zkData.toFile(), zkData.toFile());
        files.save(tree, new ConcurrentHashMap<>(), false);
        files.close();
        long savedMs = (System.nanoTime() - started) / 1_000_000;

        Path data = dir.resolve("warden");
        started = System.nanoTime();
        ToolRun imported = ToolRun.of("import", "--from-zookeeper", zkData.toString(), "--data-dir", data.toString());
        long importMs = (System.nanoTime() - started) / 1_000_000;
        assertEquals(0, imported.exitCode(), imported.toString());
        // the parents, their children, and /, /zookeeper, /zookeeper/quota, /zookeeper/config
        long expectedNodes = parents + znodes + 4;
        assertTrue(imported.out().contains(": " + expectedNodes + " nodes, 0 sessions"), imported.out());
        assertTrue(imported.out().contains(" 1 of ZooKeeper's digests checked, all equal"), imported.out());
        System.out.printf("%d znodes: ZooKeeper saved its snapshot in %d ms, warden import took %d ms%n",
                expectedNodes, savedMs, importMs);

        try (WardenServer warden = WardenServer.start(ServerConfig.builder().dataDir(data).clientPort(0)
                .clientPortAddress("127.0.0.1").build());
             ZooKeeper zk = TreeImage.connect(warden.connectString())) {
            for (String path : new String[] {"/", "/p0", "/p0/c0", "/p" + (parents - 1),
                    "/p" + (parents - 1) + "/c" + ((znodes - 1) % CHILDREN_PER_PARENT)}) {
                Stat expected = new Stat();
                byte[] expectedData = tree.getData(path, expected, null);
                Stat actual = new Stat();
                byte[] actualData = zk.getData(path, false, actual);
                assertEquals(expected, actual, path);
                assertEquals(new String(expectedData, StandardCharsets.UTF_8),
                        new String(actualData, StandardCharsets.UTF_8), path);
            }
        }
    }

    private static void create(DataTree tree, long zxid, long time, String path, int value) {
        TxnHeader header = new TxnHeader(0, 0, zxid, time, ZooDefs.OpCode.create);
        CreateTxn create = new CreateTxn(path, ("v" + value).getBytes(StandardCharsets.UTF_8),
                ZooDefs.Ids.OPEN_ACL_UNSAFE, false, -1);
        tree.processTxn(header, create, null);
    }
}
