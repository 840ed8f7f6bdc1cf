package dev.warden.server.security;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.server.WardenServer;
import dev.warden.server.config.ConfigLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Properties;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.security.auth.login.Configuration;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SASL GSSAPI (Kerberos) on the client port against a real KDC in this JVM (Apache Kerby's
 * SimpleKdcServer), with keytabs made at test time: the Apache client authenticates as its
 * principal, the identity drops host and realm as configured, and a server serving as another
 * service principal cannot accept the client's ticket.
 */
class ClientSaslKerberosTest {
    static final String REALM = TestKdc.REALM;

    @TempDir
    static Path dir;
    static WardenServer server;
    static WardenServer otherService;

    @BeforeAll
    static void start() throws Exception {
        Path serverKeytab = TestKdc.keytab(dir, "zookeeper/localhost");
        Path otherKeytab = TestKdc.keytab(dir, "elsewhere/localhost");
        Path clientKeytab = TestKdc.keytab(dir, "alice/localhost");
        String jaas = section("Server", serverKeytab, "zookeeper/localhost@" + REALM)
                + section("OtherServer", otherKeytab, "elsewhere/localhost@" + REALM)
                + section("Client", clientKeytab, "alice/localhost@" + REALM);
        Path jaasFile = Files.writeString(dir.resolve("jaas.conf"), jaas);
        System.setProperty("java.security.auth.login.config", jaasFile.toString());
        Configuration.setConfiguration(null);
        server = WardenServer.start(ConfigLoader.fromProperties(cfg("main", "Server"), w -> { }));
        otherService = WardenServer.start(ConfigLoader.fromProperties(cfg("other", "OtherServer"), w -> { }));
    }

    static String section(String name, Path keytab, String principal) {
        return TestKdc.section(name, keytab, principal);
    }

    static Properties cfg(String name, String section) {
        Properties p = new Properties();
        p.setProperty("dataDir", dir.resolve(name).toString());
        p.setProperty("clientPort", "0");
        p.setProperty("clientPortAddress", "localhost");
        p.setProperty("sasl.serverconfig", section);
        p.setProperty("kerberos.removeHostFromPrincipal", "true");
        p.setProperty("kerberos.removeRealmFromPrincipal", "true");
        return p;
    }

    @AfterAll
    static void stop() {
        for (WardenServer s : new WardenServer[] {server, otherService}) {
            if (s != null) {
                s.close();
            }
        }
        System.clearProperty("java.security.auth.login.config");
        Configuration.setConfiguration(null);
    }

    static ZooKeeper kerberosClient(String connect, BlockingQueue<Watcher.Event.KeeperState> states) throws Exception {
        ZKClientConfig config = new ZKClientConfig();
        config.setProperty(ZKClientConfig.LOGIN_CONTEXT_NAME_KEY, "Client");
        config.setProperty("zookeeper.sasl.client.canonicalize.hostname", "false");
        return new ZooKeeper(connect, 10_000, event -> states.add(event.getState()), config);
    }

    static boolean sawWithin(BlockingQueue<Watcher.Event.KeeperState> states, Watcher.Event.KeeperState wanted,
                             long ms) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        while (System.nanoTime() < deadline) {
            if (states.poll(100, TimeUnit.MILLISECONDS) == wanted) {
                return true;
            }
        }
        return false;
    }

    @Test
    void clientAuthenticatesWithItsKerberosPrincipal() throws Exception {
        BlockingQueue<Watcher.Event.KeeperState> states = new LinkedBlockingQueue<>();
        try (ZooKeeper alice = kerberosClient("localhost:" + server.clientPort(), states)) {
            assertTrue(sawWithin(states, Watcher.Event.KeeperState.SaslAuthenticated, 15_000), states.toString());
            assertTrue(alice.whoAmI().stream().anyMatch(i -> i.getAuthScheme().equals("sasl")
                    && i.getUser().equals("alice")), alice.whoAmI().toString());
            alice.create("/alice", "k".getBytes(), Collections.singletonList(new ACL(31, new Id("sasl", "alice"))),
                    CreateMode.PERSISTENT);
            assertArrayEquals("k".getBytes(), alice.getData("/alice", false, null));
        }
    }

    @Test
    void aTicketForAnotherServiceIsRefused() throws Exception {
        BlockingQueue<Watcher.Event.KeeperState> states = new LinkedBlockingQueue<>();
        try (ZooKeeper alice = kerberosClient("localhost:" + otherService.clientPort(), states)) {
            assertFalse(sawWithin(states, Watcher.Event.KeeperState.SaslAuthenticated, 3_000), states.toString());
        }
    }
}
