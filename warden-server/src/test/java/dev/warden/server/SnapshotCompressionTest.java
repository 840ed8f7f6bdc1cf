package dev.warden.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.server.config.ConfigException;
import dev.warden.server.config.ConfigLoader;
import dev.warden.server.config.ServerConfig;
import dev.warden.storage.SnapshotCompression;
import dev.warden.storage.SnapshotStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** snapshot.compression.method as in ZooKeeper: gz compresses the snapshots, and any server reads them back. */
class SnapshotCompressionTest {
    private final List<String> warnings = new ArrayList<>();

    private ServerConfig parse(String value) {
        Properties p = new Properties();
        p.setProperty("snapshot.compression.method", value);
        return ConfigLoader.fromProperties(p, warnings::add);
    }

    @Test
    void theKeyTakesZooKeepersMethods() {
        assertEquals(SnapshotCompression.GZIP, parse("gz").snapshotCompression());
        assertEquals(SnapshotCompression.NONE, parse("").snapshotCompression());
        assertEquals(List.of(), warnings);
        assertEquals(SnapshotCompression.NONE, parse("snappy").snapshotCompression());
        assertTrue(warnings.get(0).contains("written uncompressed"), warnings.toString());
        ConfigException bad = assertThrows(ConfigException.class, () -> parse("zip"));
        assertTrue(bad.getMessage().contains("must be gz, snappy or empty"), bad.getMessage());
    }

    @Test
    void aServerWritingGzSnapshotsRecoversFromThem(@TempDir Path dir) throws Exception {
        ServerConfig gz = ServerConfig.builder().dataDir(dir).clientPort(0)
                .snapshotCompression(SnapshotCompression.GZIP).build();
        try (WardenServer server = WardenServer.start(gz)) {
            ZooKeeper zk = ApacheClients.connect(server.connectString());
            zk.create("/kept", "gz".getBytes(), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            zk.close();
            server.snapshotNow();
        }
        assertTrue(new SnapshotStore(snapshotsDir(dir)).newestValid().orElseThrow().isCompressed());
        // a server configured without compression recovers from the compressed snapshot
        try (WardenServer plain = WardenServer.start(ServerConfig.builder().dataDir(dir).clientPort(0).build())) {
            ZooKeeper zk = ApacheClients.connect(plain.connectString());
            assertArrayEquals("gz".getBytes(), zk.getData("/kept", false, null));
            zk.close();
        }
    }

    private static Path snapshotsDir(Path dataDir) {
        return new dev.warden.server.recovery.DataLayout(dataDir, dataDir).snapshotsDir();
    }
}
