package dev.warden.server.security;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
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
 * SASL DIGEST-MD5 on the client port with the Apache Java client and Curator (JAAS), and
 * kazoo's sasl_options: the sasl identity in ACLs, the SASL super user, wrong passwords and
 * unknown users refused, and sessionRequireClientSASLAuth refusing a client that does not
 * authenticate. The clients read the JVM-wide JAAS file, which is set for this class only.
 */
class ClientSaslDigestTest {
    static final String JAAS = """
            Server {
              org.apache.zookeeper.server.auth.DigestLoginModule required
              user_bob="bob-sasl-secret"
              user_root="root-sasl-secret";
            };
            Client {
              org.apache.zookeeper.server.auth.DigestLoginModule required
              username="bob" password="bob-sasl-secret";
            };
            RootClient {
              org.apache.zookeeper.server.auth.DigestLoginModule required
              username="root" password="root-sasl-secret";
            };
            WrongPassword {
              org.apache.zookeeper.server.auth.DigestLoginModule required
              username="bob" password="not-bobs-password";
            };
            UnknownUser {
              org.apache.zookeeper.server.auth.DigestLoginModule required
              username="mallory" password="whatever";
            };
            """;

    @TempDir
    static Path dir;
    static Path jaasFile;
    static WardenServer server;
    static WardenServer strict;

    @BeforeAll
    static void start() throws Exception {
        jaasFile = Files.writeString(dir.resolve("jaas.conf"), JAAS);
        System.setProperty("java.security.auth.login.config", jaasFile.toString());
        Configuration.setConfiguration(null);
        server = WardenServer.start(ConfigLoader.fromProperties(cfg("open", false), w -> { }));
        strict = WardenServer.start(ConfigLoader.fromProperties(cfg("strict", true), w -> { }));
    }

    static Properties cfg(String name, boolean requireSasl) {
        Properties p = new Properties();
        p.setProperty("dataDir", dir.resolve(name).toString());
        p.setProperty("clientPort", "0");
        p.setProperty("authProvider.1", "org.apache.zookeeper.server.auth.SASLAuthenticationProvider");
        p.setProperty("superUser", "root");
        if (requireSasl) {
            p.setProperty("sessionRequireClientSASLAuth", "true");
        }
        // java.security.auth.login.config comes from the system property, as ZooKeeper deployments set it
        return p;
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
        if (strict != null) {
            strict.close();
        }
        System.clearProperty("java.security.auth.login.config");
        Configuration.setConfiguration(null);
    }

    /** A session with the given JAAS section, and the states it went through. */
    record Session(ZooKeeper zk, BlockingQueue<Watcher.Event.KeeperState> states) {
    }

    static Session session(String connect, String section) throws Exception {
        ZKClientConfig config = clientConfig(section);
        BlockingQueue<Watcher.Event.KeeperState> states = new LinkedBlockingQueue<>();
        ZooKeeper zk = new ZooKeeper(connect, 10_000, event -> states.add(event.getState()), config);
        return new Session(zk, states);
    }

    static void awaitState(Session session, Watcher.Event.KeeperState wanted) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            Watcher.Event.KeeperState state = session.states().poll(100, TimeUnit.MILLISECONDS);
            if (state == wanted) {
                return;
            }
        }
        throw new AssertionError("no " + wanted + " within 10 s");
    }

    @Test
    void digestUserGetsASaslIdentityUsableInAcls() throws Exception {
        Session bob = session(server.connectString(), "Client");
        Session root = session(server.connectString(), "RootClient");
        try {
            awaitState(bob, Watcher.Event.KeeperState.SaslAuthenticated);
            assertTrue(bob.zk().whoAmI().stream().anyMatch(i -> i.getAuthScheme().equals("sasl")
                    && i.getUser().equals("bob")), bob.zk().whoAmI().toString());
            bob.zk().create("/bob-only", "b".getBytes(), Collections.singletonList(new ACL(31, new Id("sasl", "bob"))),
                    CreateMode.PERSISTENT);
            assertArrayEquals("b".getBytes(), bob.zk().getData("/bob-only", false, null));
            try (ZooKeeper anonymous = anonymous(server.connectString())) {
                assertThrows(KeeperException.NoAuthException.class,
                        () -> anonymous.getData("/bob-only", false, null));
            }
            awaitState(root, Watcher.Event.KeeperState.SaslAuthenticated);
            assertArrayEquals("b".getBytes(), root.zk().getData("/bob-only", false, null), "superUser=root");
        } finally {
            bob.zk().close();
            root.zk().close();
        }
    }

    @Test
    void wrongPasswordAndUnknownUserAreRefusedWhileOthersServe() throws Exception {
        try (ZooKeeper other = anonymous(server.connectString())) {
            for (String section : new String[] {"WrongPassword", "UnknownUser"}) {
                Session refused = session(server.connectString(), section);
                try {
                    // each try is answered AUTHFAILED and closed; the client keeps trying, never authenticated
                    Thread.sleep(1_500);
                    assertFalse(refused.states().contains(Watcher.Event.KeeperState.SaslAuthenticated), section);
                } finally {
                    refused.zk().close();
                }
                assertTrue(other.exists("/", false) != null, "other sessions keep serving");
            }
        }
    }

    @Test
    void curatorAuthenticatesWithTheSameJaasFile() throws Exception {
        try (CuratorFramework curator = CuratorFrameworkFactory.builder().connectString(server.connectString())
                .retryPolicy(new RetryOneTime(100)).zkClientConfig(clientConfig("Client")).build()) {
            curator.start();
            assertTrue(curator.blockUntilConnected(10, TimeUnit.SECONDS));
            curator.create().withACL(Collections.singletonList(new ACL(31, new Id("sasl", "bob"))))
                    .forPath("/curator-bob", "c".getBytes());
            assertArrayEquals("c".getBytes(), curator.getData().forPath("/curator-bob"));
        }
    }

    /** A client that does not try SASL, whatever the JVM's JAAS file holds. */
    static ZooKeeper anonymous(String connect) throws Exception {
        ZKClientConfig config = new ZKClientConfig();
        config.setProperty(ZKClientConfig.ENABLE_CLIENT_SASL_KEY, "false");
        java.util.concurrent.CountDownLatch connected = new java.util.concurrent.CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(connect, 10_000, e -> {
            if (e.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        }, config);
        assertTrue(connected.await(10, TimeUnit.SECONDS));
        return zk;
    }

    static ZKClientConfig clientConfig(String section) {
        ZKClientConfig config = new ZKClientConfig();
        config.setProperty(ZKClientConfig.LOGIN_CONTEXT_NAME_KEY, section);
        // ZooKeeper 3.9's client refuses DIGEST-MD5 in its default FIPS mode
        config.setProperty("zookeeper.fips-mode", "false");
        return config;
    }

    @Test
    void sessionRequireClientSaslAuthRefusesClientsThatDoNotAuthenticate() throws Exception {
        ZKClientConfig noSasl = new ZKClientConfig();
        noSasl.setProperty(ZKClientConfig.ENABLE_CLIENT_SASL_KEY, "false");
        try (ZooKeeper anonymous = new ZooKeeper(strict.connectString(), 10_000, e -> { }, noSasl)) {
            KeeperException refused = assertThrows(KeeperException.class, () -> anonymous.exists("/", false));
            assertEquals(KeeperException.Code.SESSIONCLOSEDREQUIRESASLAUTH, refused.code(), refused.toString());
        }
        Session bob = session(strict.connectString(), "Client");
        try {
            awaitState(bob, Watcher.Event.KeeperState.SaslAuthenticated);
            assertFalse(bob.zk().getChildren("/", false).isEmpty());
        } finally {
            bob.zk().close();
        }
    }

    @Test
    void kazooAuthenticatesWithDigestMd5() throws Exception {
        Kazoo.assumeInstalled();
        String script = """
                import sys
                from kazoo.client import KazooClient
                zk = KazooClient(hosts=sys.argv[1], sasl_options={"mechanism": "DIGEST-MD5", "username": sys.argv[2],
                                 "password": sys.argv[3]}, timeout=10)
                try:
                    zk.start(timeout=float(sys.argv[4]))
                    print("whoami:" + str(zk.client_state))
                    zk.create("/kazoo-" + sys.argv[2], b"k")
                    print("created")
                finally:
                    zk.stop()
                """;
        Kazoo.Result ok = Kazoo.script(dir, script, server.connectString(), "bob", "bob-sasl-secret", "10");
        assertEquals(0, ok.exitCode(), ok.output());
        assertTrue(ok.output().contains("created"), ok.output());
        Kazoo.Result wrong = Kazoo.script(dir, script, server.connectString(), "bob", "wrong-password", "3");
        assertTrue(wrong.exitCode() != 0 && !wrong.output().contains("created"), wrong.output());
    }
}
