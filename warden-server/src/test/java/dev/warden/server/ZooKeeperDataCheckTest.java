package dev.warden.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.server.config.ConfigException;
import dev.warden.server.config.ServerConfig;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.server.NIOServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A data directory Apache ZooKeeper wrote is refused before Warden creates or writes anything. */
class ZooKeeperDataCheckTest {
    @TempDir
    Path dir;

    /** Runs a real standalone Apache ZooKeeper on {@code dataDir} long enough to write a znode. */
    private static void writeWithApacheZooKeeper(Path dataDir) throws Exception {
        ZooKeeperServer server = new ZooKeeperServer(dataDir.toFile(), dataDir.toFile(), 2000);
        NIOServerCnxnFactory factory = new NIOServerCnxnFactory();
        factory.configure(new InetSocketAddress("127.0.0.1", 0), 10);
        try {
            factory.startup(server);
            try (ZooKeeper zk = ApacheClients.connect("127.0.0.1:" + factory.getLocalPort())) {
                zk.create("/kept-by-zookeeper", new byte[] {1}, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            }
        } finally {
            factory.shutdown();
            server.shutdown();
        }
    }

    /** Every path under {@code root} with its size and modification time, to see that nothing changed. */
    private static Map<Path, String> listing(Path root) throws IOException {
        Map<Path, String> files = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.toList()) {
                BasicFileAttributes a = Files.readAttributes(path, BasicFileAttributes.class);
                files.put(root.relativize(path), a.size() + "@" + a.lastModifiedTime());
            }
        }
        return files;
    }

    private ServerConfig config(Path dataDir, Path dataLogDir) {
        return ServerConfig.builder().dataDir(dataDir).dataLogDir(dataLogDir).clientPort(0).build();
    }

    @Test
    void aDataDirectoryApacheZooKeeperWroteIsRefusedAndLeftUntouched() throws Exception {
        Path zookeeperData = dir.resolve("zk");
        writeWithApacheZooKeeper(zookeeperData);
        try (Stream<Path> written = Files.list(zookeeperData.resolve("version-2"))) {
            List<String> names = written.map(p -> p.getFileName().toString()).toList();
            assertTrue(names.stream().anyMatch(n -> n.startsWith("log.")), "ZooKeeper wrote a log: " + names);
        }
        Map<Path, String> before = listing(zookeeperData);

        ConfigException e = assertThrows(ConfigException.class,
                () -> WardenServer.start(config(zookeeperData, zookeeperData)));
        assertEquals("dataDir", e.key());
        assertTrue(e.getMessage().startsWith("dataDir=" + zookeeperData + " holds Apache ZooKeeper data ("
                + zookeeperData.resolve("version-2")), e.getMessage());
        assertTrue(e.getMessage().contains("Warden does not read ZooKeeper's format"), e.getMessage());
        assertTrue(e.getMessage().contains("point dataDir and dataLogDir at an empty directory"), e.getMessage());
        assertTrue(e.getMessage().contains("'warden import --from-zookeeper " + zookeeperData + " --data-dir NEW_DIR'"),
                e.getMessage());
        assertEquals(before, listing(zookeeperData), "nothing created or written in ZooKeeper's directory");
    }

    @Test
    void aTransactionLogDirectoryApacheZooKeeperWroteIsRefusedBeforeDataDirIsCreated() throws Exception {
        Path zookeeperData = dir.resolve("zk");
        writeWithApacheZooKeeper(zookeeperData);
        Map<Path, String> before = listing(zookeeperData);
        Path freshDataDir = dir.resolve("fresh");

        ConfigException e = assertThrows(ConfigException.class,
                () -> WardenServer.start(config(freshDataDir, zookeeperData)));
        assertEquals("dataLogDir", e.key());
        assertTrue(e.getMessage().startsWith("dataLogDir=" + zookeeperData + " holds Apache ZooKeeper data"),
                e.getMessage());
        assertFalse(Files.exists(freshDataDir), "refused before creating anything");
        assertEquals(before, listing(zookeeperData));
    }

    @Test
    void eachZooKeeperFileKindIsRecognised() throws IOException {
        for (String name : List.of("snapshot.100000002", "log.100000001", "acceptedEpoch", "currentEpoch")) {
            Path dataDir = Files.createDirectories(dir.resolve(name).resolve("version-2"));
            Files.writeString(dataDir.resolve(name), "x");
            ServerConfig c = config(dataDir.getParent(), dataDir.getParent());
            ConfigException e = assertThrows(ConfigException.class, () -> ZooKeeperDataCheck.refuseZooKeeperData(c));
            assertTrue(e.getMessage().contains(dataDir.resolve(name).toString()), e.getMessage());
        }
    }

    @Test
    void wardensOwnMemberFilesAndAnEmptyVersion2AreNotZooKeeperData() throws IOException {
        Path dataDir = Files.createDirectories(dir.resolve("member"));
        // a Warden member keeps its epochs directly in dataDir
        Files.writeString(dataDir.resolve("acceptedEpoch"), "3");
        Files.writeString(dataDir.resolve("currentEpoch"), "3");
        Files.writeString(dataDir.resolve("myid"), "1");
        Files.createDirectories(dataDir.resolve("version-2"));
        try (WardenServer server = WardenServer.start(config(dataDir, dataDir))) {
            assertTrue(server.clientPort() > 0);
        }
    }
}
