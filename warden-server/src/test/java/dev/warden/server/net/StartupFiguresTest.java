package dev.warden.server.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.warden.server.ApacheClients;
import dev.warden.server.WardenServer;
import dev.warden.server.config.ServerConfig;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** mntr's start-up figures after a restart: the log records replayed, once, under ZooKeeper's names. */
class StartupFiguresTest {
    @Test
    void aRestartedServerCountsTheTransactionsItReplayed(@TempDir Path dir) throws Exception {
        ServerConfig config = ServerConfig.builder().dataDir(dir).clientPort(0)
                .fourLetterWordWhitelist(Set.of("mntr")).build();
        try (WardenServer first = WardenServer.start(config)) {
            ZooKeeper zk = ApacheClients.connect(first.connectString());
            for (int i = 0; i < 4; i++) {
                zk.create("/s" + i, new byte[1], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            }
            zk.close();
        }
        try (WardenServer again = WardenServer.start(config)) {
            Map<String, String> mntr = new HashMap<>();
            for (String line : FourLetterWordClient.ask(again.connectString(), "mntr").split("\n")) {
                String[] kv = line.split("\t");
                mntr.put(kv[0], kv[1]);
            }
            // no snapshot was taken (snapCount is far off): every transaction is replayed from the log,
            // the session's creation and closing and the four creates
            assertEquals("1", mntr.get("zk_cnt_startup_txns_loaded"));
            assertEquals("6", mntr.get("zk_sum_startup_txns_loaded"));
            assertEquals("1", mntr.get("zk_cnt_startup_snap_load_time"));
            assertEquals("1", mntr.get("zk_cnt_startup_txns_load_time"));
        }
    }
}
