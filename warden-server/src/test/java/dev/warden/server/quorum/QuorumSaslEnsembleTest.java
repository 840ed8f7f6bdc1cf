package dev.warden.server.quorum;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.server.ApacheClients;
import dev.warden.server.LogCapture;
import dev.warden.server.security.AuthEnforcement;
import dev.warden.server.security.QuorumSaslSettings;
import dev.warden.server.security.SaslSettings;
import dev.warden.server.security.SecurityConfig;
import dev.warden.server.security.X509Identities;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three members in this JVM requiring SASL DIGEST-MD5 of each other
 * ({@code quorum.auth.enableSasl}, {@code learnerRequireSasl}, {@code serverRequireSasl}), one of
 * them with a wrong password: the other two elect a leader and serve writes; the third never
 * serves, and is refused with its address in the log. Given the right password it joins and
 * catches up.
 */
class QuorumSaslEnsembleTest {
    private static final long SERVE_TIMEOUT_MS = 20_000;
    /** How long the member with the wrong password is watched not serving, after it was refused. */
    private static final long KEPT_OUT_MS = 1_500;

    @TempDir
    Path dir;
    private TestEnsemble ensemble;

    @AfterEach
    void stop() {
        if (ensemble != null) {
            ensemble.close();
        }
    }

    private Path jaas(String name, String password) throws Exception {
        return Files.writeString(dir.resolve(name + ".jaas"), """
                QuorumServer {
                  org.apache.zookeeper.server.auth.DigestLoginModule required
                  user_zkquorum="%s";
                };
                QuorumLearner {
                  org.apache.zookeeper.server.auth.DigestLoginModule required
                  username="zkquorum"
                  password="%s";
                };
                """.formatted(password, password));
    }

    private static SecurityConfig requiring(Path jaasFile) {
        return new SecurityConfig(0, null, false, null, true, X509Identities.DEFAULT, false, false, null, true,
                new SaslSettings(jaasFile, SaslSettings.DEFAULT_SECTION, false, false, null, false),
                AuthEnforcement.OFF, new QuorumSaslSettings(true, true, true, QuorumSaslSettings.DEFAULT_PRINCIPAL,
                        "QuorumLearner", "QuorumServer"));
    }

    @Test
    void aMemberWithAWrongPasswordIsKeptOutWhileTheOthersServeAndJoinsOnceItIsRight() throws Exception {
        Path good = jaas("good", "ensemble-secret-5d1e");
        Path bad = jaas("bad", "wrong-secret-77aa");
        ensemble = new TestEnsemble(dir, List.of(1L, 2L, 3L), List.of(), ZabConsensus::new);
        ensemble.security(1, requiring(good));
        ensemble.security(2, requiring(good));
        ensemble.security(3, requiring(bad));
        try (LogCapture log = LogCapture.start()) {
            ensemble.startAll();
            ensemble.awaitServing(1, SERVE_TIMEOUT_MS);
            ensemble.awaitServing(2, SERVE_TIMEOUT_MS);
            try (ZooKeeper zk = ApacheClients.connect(ensemble.connectString(1))) {
                zk.create("/written", "while 3 is out".getBytes(), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            }
            log.awaitLine(l -> l.contains("(says it is member 3): SASL authentication (DIGEST-MD5) failed")
                    && l.contains("/127.0.0.1:"), SERVE_TIMEOUT_MS);
            long deadline = System.currentTimeMillis() + KEPT_OUT_MS;
            while (System.currentTimeMillis() < deadline) {
                assertFalse(ensemble.server(3).member().isServing(), "member 3 must not serve");
                Thread.sleep(50);
            }
            assertFalse(log.text().contains("ensemble-secret") || log.text().contains("wrong-secret"),
                    "no password in the log");
        }
        ensemble.stop(3);
        ensemble.security(3, requiring(good));
        ensemble.start(3);
        ensemble.awaitServing(3, SERVE_TIMEOUT_MS);
        try (ZooKeeper zk = ApacheClients.connect(ensemble.connectString(3))) {
            zk.sync("/", (rc, path, ctx) -> { }, null);
            assertArrayEquals("while 3 is out".getBytes(), zk.getData("/written", false, null));
        }
        assertTrue(ensemble.server(3).member().isServing());
    }
}
