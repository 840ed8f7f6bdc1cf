package dev.warden.cli.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.cli.cluster.ClusterSpec;
import dev.warden.cli.cluster.Flavour;
import dev.warden.cli.cluster.LocalCluster;
import dev.warden.cli.data.ToolRun;
import dev.warden.cli.data.TreeImage;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.SortedMap;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The steps of docs/MIGRATING.md on real processes: a three-member Apache ZooKeeper ensemble
 * with data (in snapshots and logs), every member stopped, each member's data directory imported,
 * a three-member Warden ensemble started on the imported directories: every Warden member serves
 * the tree ZooKeeper served, Stats, ACLs and data included.
 */
class MigrationScriptTest {
    private static final Duration QUORUM_TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private ClusterSpec spec(Flavour flavour, Path baseDir) {
        return ClusterSpec.builder(flavour, baseDir, ManagementFactory.getRuntimeMXBean().getClassPath())
                .tickTimeMs(200)
                // small, so the members' data is in snapshots and in logs after them
                .configLine("snapCount=40")
                .build();
    }

    @Test
    void aZooKeeperEnsembleMovesToWardenWithNothingLost() throws Exception {
        SortedMap<String, String> served;
        LocalCluster zookeeper = LocalCluster.create(spec(Flavour.APACHE, dir.resolve("zookeeper")));
        try {
            zookeeper.startAll();
            zookeeper.awaitQuorum(QUORUM_TIMEOUT);
            try (ZooKeeper zk = TreeImage.connect(zookeeper.connectString())) {
                zk.create("/config", "a=1".getBytes(StandardCharsets.UTF_8), ZooDefs.Ids.OPEN_ACL_UNSAFE,
                        CreateMode.PERSISTENT);
                for (int i = 0; i < 150; i++) {
                    zk.create("/config/key-", ("value " + i).getBytes(StandardCharsets.UTF_8),
                            ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT_SEQUENTIAL);
                    if (i % 10 == 0) {
                        zk.setData("/config", ("a=" + i).getBytes(StandardCharsets.UTF_8), -1);
                    }
                    if (i % 7 == 0) {
                        zk.delete(String.format("/config/key-%010d", i), -1);
                    }
                }
                served = TreeImage.read(zk);
            }
            // step 1: stop every ZooKeeper member
            for (int id : zookeeper.ids()) {
                zookeeper.stop(id);
            }
        } finally {
            zookeeper.close();
        }

        LocalCluster warden = LocalCluster.create(spec(Flavour.WARDEN, dir.resolve("warden")));
        try {
            // step 2: import each member's data directory (the new directory holds only its myid here;
            // the import brings ZooKeeper's own myid)
            for (int id : warden.ids()) {
                Path data = warden.member(id).dataDir();
                Files.delete(data.resolve("myid"));
                ToolRun imported = ToolRun.of("import", "--from-zookeeper",
                        zookeeper.member(id).dataDir().toString(), "--data-dir", data.toString());
                assertEquals(0, imported.exitCode(), "member " + id + ": " + imported);
                assertEquals(id + "\n", Files.readString(data.resolve("myid")));
            }
            // step 3: start the Warden members
            warden.startAll();
            warden.awaitQuorum(QUORUM_TIMEOUT);
            // step 4: every member serves the same tree ZooKeeper served
            for (int id : warden.ids()) {
                assertEquals(served, TreeImage.read(warden.connectString(id)), "member " + id);
            }
            try (ZooKeeper zk = TreeImage.connect(warden.connectString())) {
                String next = zk.create("/config/key-", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE,
                        CreateMode.PERSISTENT_SEQUENTIAL);
                assertEquals("/config/key-0000000150", next, "sequence numbers go on where ZooKeeper left them");
                assertTrue(zk.exists("/config", false).getMzxid() < zk.exists(next, false).getCzxid());
            }
        } finally {
            warden.close();
        }
    }
}
