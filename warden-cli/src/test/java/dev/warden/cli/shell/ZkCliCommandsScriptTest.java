package dev.warden.cli.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/** zkCli's version, config, printwatches and deleteall -b, and connecting where no server is. */
class ZkCliCommandsScriptTest extends ScriptTestBase {
    @Test
    void versionNamesTheZooKeeperVersionWardenSpeaks() {
        assertTrue(ok("version\n").out().startsWith("ZooKeeper CLI version: 3.9.5-warden"));
    }

    @Test
    void configShowsTheEnsembleConfigurationAndItsStat() {
        // a standalone server's /zookeeper/config is empty, as ZooKeeper's is
        ShellRun run = ok("config -s\n");
        assertTrue(run.out().startsWith("\ncZxid = 0x0\n"), run.toString());
        assertEquals("127.0.0.1:2181,b:2182", ConfigMemberLines.connectString(
                "server.1=a:2888:3888:participant;127.0.0.1:2181\nserver.2=b:2888:3888;2182\nserver.3=c:1:2\nversion=0"));
    }

    @Test
    void printwatchesOffSilencesWatchEvents() {
        ShellRun run = ok("create /pw x\nprintwatches\nprintwatches off\nget -w /pw\nset /pw y\nprintwatches\n");
        assertTrue(run.out().contains("printwatches is on\n"), run.toString());
        assertTrue(run.out().contains("printwatches is off\n"), run.toString());
        assertFalse(run.out().contains("WATCHER::"), run.toString());
    }

    @Test
    void deleteallInBatchesRemovesTheSubtree() {
        StringBuilder script = new StringBuilder("create /batch\n");
        for (int i = 0; i < 25; i++) {
            script.append("create /batch/c").append(i).append('\n').append("create /batch/c").append(i).append("/g\n");
        }
        script.append("deleteall /batch -b 7\nstat /batch\n");
        ShellRun run = server.script(script.toString());
        assertTrue(run.err().contains("Node does not exist: /batch"), run.toString());
        failing("deleteall /x -b 0\n", "batch size must be a positive integer: 0");
    }

    @Test
    void noServerFailsWithinTheConnectWaitAndSaysWhy() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort(); // closed again: nothing listens there
        }
        long startNs = System.nanoTime();
        // a 2 s session timeout: the wait is the shorter of it (plus a second) and CONNECT_WAIT_MS
        ShellRun run = ShellRun.of("ls /\n", "-server", "127.0.0.1:" + port, "-timeout", "2000");
        long tookMs = (System.nanoTime() - startNs) / 1_000_000;
        assertTrue(tookMs < 3_000 + 5_000, tookMs + " ms");
        assertTrue(run.err().contains("Unable to connect to 127.0.0.1:" + port + ": no server answered within 3 s"),
                run.toString());
        assertFalse(run.out().contains("Expired") || run.err().contains("Expired"), run.toString());
    }
}
