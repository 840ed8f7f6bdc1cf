package dev.warden.testing.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.testing.WardenTestingServer;
import dev.warden.testing.Zk;
import java.nio.file.FileSystems;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

@WithWardenServer
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClassWideServerTest {
    private static WardenTestingServer shared;
    private static WardenTestingServer seenFirst;
    private WardenTestingServer mine;

    @Test
    @Order(1)
    void fieldsAndParametersGetTheClassServer(WardenTestingServer parameter) throws Exception {
        assertNotNull(shared);
        assertSame(shared, parameter);
        assertSame(shared, mine);
        seenFirst = parameter;
        assertNotEquals(FileSystems.getDefault(), parameter.dataDirectory().getFileSystem(),
                "by default the extension's server keeps its data on an in-memory file system");
        ZooKeeper zk = Zk.connect(parameter.connectString());
        zk.create("/shared", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        zk.close();
    }

    @Test
    @Order(2)
    void theNextTestSeesTheSameServer(WardenTestingServer parameter) throws Exception {
        assertSame(seenFirst, parameter);
        ZooKeeper zk = Zk.connect(parameter.connectString());
        assertNotNull(zk.exists("/shared", false));
        zk.close();
    }

    @Test
    @Order(3)
    @WithWardenServer
    void aMethodAnnotationGivesThatTestItsOwn(WardenTestingServer parameter) throws Exception {
        assertTrue(parameter != shared);
        assertSame(parameter, mine);
        ZooKeeper zk = Zk.connect(parameter.connectString());
        assertEquals(null, zk.exists("/shared", false));
        zk.close();
    }

    @AfterAll
    static void serverStillRunsUntilAfterAll() {
        assertTrue(shared.isRunning());
    }
}
