package dev.warden.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.server.ApacheClients;
import dev.warden.server.WardenServer;
import dev.warden.server.config.ServerConfig;
import dev.warden.server.net.FourLetterWordClient;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Set;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The plain-text admin commands on the client port, and the whitelist that guards them. */
class FourLetterWordsTest {
    @TempDir
    Path dataDir;

    @Test
    void onlySrvrAnswersUnderTheDefaultWhitelist() throws Exception {
        try (WardenServer server = WardenServer.start(ServerConfig.builder().dataDir(dataDir).clientPort(0).build())) {
            assertEquals("ruok is not executed because it is not in the whitelist.\n", ask(server, "ruok"));
            assertEquals("mntr is not executed because it is not in the whitelist.\n", ask(server, "mntr"));
            String srvr = ask(server, "srvr");
            // The build's own version and time, filled in by Maven, in ZooKeeper's shape.
            assertTrue(srvr.matches("(?s)Zookeeper version: 3\\.9\\.5-warden-\\d+\\.\\d+\\.\\d+[^,$]*, built on "
                    + "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ\n.*"), srvr);
            assertTrue(srvr.contains("Mode: standalone\n"), srvr);
            assertTrue(srvr.contains("Node count: 4\n"), srvr);
        }
    }

    @Test
    void whitelistedWordsReportTheServersState() throws Exception {
        ServerConfig config = ServerConfig.builder().dataDir(dataDir).clientPort(0)
                .fourLetterWordWhitelist(Set.of("*")).build();
        try (WardenServer server = WardenServer.start(config)) {
            ZooKeeper zk = ApacheClients.connect(server.connectString());
            try {
                zk.create("/eph", new byte[3], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL);
                zk.exists("/watched", true);
                String session = "0x" + Long.toHexString(zk.getSessionId());

                assertEquals("imok", ask(server, "ruok"));
                assertEquals("rw", ask(server, "isro"));
                // The connections of the words asked just before close asynchronously; wait for them to go.
                String mntr = ask(server, "mntr");
                long deadlineNs = System.nanoTime() + 5_000_000_000L;
                while (!mntr.contains("zk_num_alive_connections\t2\n") && System.nanoTime() < deadlineNs) {
                    Thread.sleep(20);
                    mntr = ask(server, "mntr");
                }
                assertTrue(mntr.contains("zk_server_state\tstandalone\n"), mntr);
                assertTrue(mntr.contains("zk_znode_count\t5\n"), mntr);
                assertTrue(mntr.contains("zk_ephemerals_count\t1\n"), mntr);
                assertTrue(mntr.contains("zk_watch_count\t1\n"), mntr);
                assertTrue(mntr.contains("zk_num_alive_connections\t2\n"), mntr);
                assertTrue(java.util.regex.Pattern.compile("(?m)^zk_tree_digest\t[0-9a-f]{16}$").matcher(mntr).find(),
                        mntr);
                // the session and the create were each fsynced; none took the default 1 s threshold
                assertTrue(java.util.regex.Pattern.compile("(?m)^zk_cnt_fsynctime\t([2-9]|\\d\\d+)$").matcher(mntr).find(),
                        mntr);
                assertTrue(mntr.contains("zk_fsync_threshold_exceed_count\t0\n"), mntr);
                assertTrue(ask(server, "conf").contains("clientPort=" + server.config().clientPort()));
                assertTrue(ask(server, "envi").startsWith("Environment:\n"));
                assertTrue(ask(server, "stat").contains("Clients:\n"));
                assertTrue(ask(server, "cons").contains("sid=" + session));
                assertEquals("1 connections watching 1 paths\nTotal watches:1\n", ask(server, "wchs"));
                assertEquals(session + "\n\t/watched\n\n", ask(server, "wchc"));
                assertEquals("/watched\n\t" + session + "\n\n", ask(server, "wchp"));
                String dump = ask(server, "dump");
                assertTrue(dump.contains(session + ":\n\t/eph\n"), dump);
            } finally {
                zk.close();
            }
        }
    }

    /** Sends a word on a fresh connection and reads the reply until the server closes. */
    private static String ask(WardenServer server, String word) throws IOException {
        return FourLetterWordClient.ask(server.connectString(), word);
    }
}
