package dev.warden.cli.ensemble;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.cli.cluster.Flavour;
import dev.warden.cli.cluster.LocalCluster;
import dev.warden.server.security.TestPki;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Three member JVMs with TLS between them ({@code sslQuorum}) and SASL DIGEST-MD5 required both
 * ways ({@code quorum.auth.*}, a JAAS file per member given as
 * {@code java.security.auth.login.config}), member 3 holding a wrong password. Members 1 and 2
 * serve a write load; member 3 never serves, and they log its refusal with its address; once
 * its JAAS file holds the right password it joins, and all three agree on every acknowledged
 * write. No password appears in any member's log.
 */
class QuorumSaslProcessTest {
    private static final int TICK_TIME_MS = 500;
    private static final int SESSION_TIMEOUT_MS = 6_000;
    private static final Duration SERVE_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration PROGRESS_TIMEOUT = Duration.ofSeconds(60);
    /** How long member 3 is watched not serving, once its refusal was logged. */
    private static final long KEPT_OUT_MS = 3_000;
    private static final String SECRET = "members-secret-3b9f";
    private static final String WRONG = "stale-secret-0c44";

    @Test
    void aMemberWithAWrongPasswordIsKeptOutWhileTheOthersServeOverTls() throws Exception {
        Path runDir = Ensembles.runDir("quorum-sasl");
        TestPki ca = TestPki.create(runDir.resolve("pki"), "members-ca");
        Path memberKeys = ca.keyStore(ca.issue("warden-member"), TestPki.StoreType.PEM);
        Path trust = ca.trustStore(TestPki.StoreType.PEM);
        LocalCluster cluster = LocalCluster.create(Ensembles.specBuilder(Flavour.WARDEN, runDir)
                .tickTimeMs(TICK_TIME_MS)
                .configLine("sslQuorum=true")
                .configLine("ssl.quorum.keyStore.location=" + memberKeys)
                .configLine("ssl.quorum.trustStore.location=" + trust)
                .configLine("quorum.auth.enableSasl=true")
                .configLine("quorum.auth.learnerRequireSasl=true")
                .configLine("quorum.auth.serverRequireSasl=true")
                .build());
        for (int id : cluster.ids()) {
            Path jaas = writeJaas(cluster.member(id).dir(), id == 3 ? WRONG : SECRET);
            Ensembles.setKeys(cluster.member(id).configFile(), Map.of("java.security.auth.login.config",
                    jaas.toString()));
        }
        boolean passed = false;
        try {
            cluster.startAll();
            cluster.awaitServing(1, SERVE_TIMEOUT);
            cluster.awaitServing(2, SERVE_TIMEOUT);
            try (WriteLoad load = WriteLoad.start(cluster, 2, 25, SESSION_TIMEOUT_MS)) {
                load.awaitEveryClientProgresses(5, PROGRESS_TIMEOUT, "members 1 and 2 serve, 3 is refused");
                String refusal = awaitLogLine(cluster, 1, "(says it is member 3): SASL authentication (DIGEST-MD5)"
                        + " failed", SERVE_TIMEOUT);
                assertTrue(refusal.contains("/127.0.0.1:"), "the refusal names member 3's address: " + refusal);
                long until = System.currentTimeMillis() + KEPT_OUT_MS;
                while (System.currentTimeMillis() < until) {
                    assertFalse(cluster.mode(3).servesInEnsemble(), "member 3 must not serve; " + cluster.describe());
                    Thread.sleep(200);
                }
                cluster.stop(3);
                writeJaas(cluster.member(3).dir(), SECRET);
                cluster.start(3);
                cluster.awaitQuorum(SERVE_TIMEOUT);
                load.awaitEveryClientProgresses(5, PROGRESS_TIMEOUT, "member 3 rejoined with the right password");
                load.stop();
                EnsembleChecks.exactlyOneLeader(cluster);
                EnsembleChecks.allMembersAgreeAndKeepEveryAcknowledgedWrite(cluster, load.ledgers());
                assertTrue(cluster.mode(3).servesInEnsemble(), "member 3 serves; " + cluster.describe());
            }
            for (int id : cluster.ids()) {
                String log = Files.readString(cluster.member(id).stderrFile(), StandardCharsets.UTF_8);
                assertFalse(log.contains(SECRET) || log.contains(WRONG), "member " + id + " logged a password");
            }
            passed = true;
        } finally {
            Ensembles.closeAndDeleteIfPassed(cluster, passed);
        }
    }

    private static Path writeJaas(Path memberDir, String password) throws Exception {
        return Files.writeString(memberDir.resolve("jaas.conf"), """
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

    private static String awaitLogLine(LocalCluster cluster, int id, String fragment, Duration timeout)
            throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            for (String line : Files.readAllLines(cluster.member(id).stderrFile(), StandardCharsets.UTF_8)) {
                if (line.contains(fragment)) {
                    return line;
                }
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("member " + id + " never logged '" + fragment + "'; " + cluster.describe());
            }
            Thread.sleep(200);
        }
    }
}
