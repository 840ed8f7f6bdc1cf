package dev.warden.cli.ensemble;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.cli.cluster.Flavour;
import dev.warden.cli.cluster.LocalCluster;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A running 3-member ensemble of separate JVMs switched to SASL between members (DIGEST-MD5) by
 * rolling restarts in ZooKeeper's three steps, under a write load: every member restarted with
 * {@code quorum.auth.enableSasl=true}, then with {@code learnerRequireSasl} too, then with
 * {@code serverRequireSasl}. Writes go on through every restart; at the end no acknowledged
 * write is lost, there is one leader, every tree is the same, every member logs members
 * authenticated with SASL, and a hello that does not authenticate is refused at once.
 */
class QuorumSaslRollingSwitchTest {
    private static final int TICK_TIME_MS = 500;
    private static final int SESSION_TIMEOUT_MS = 6_000;
    private static final Duration QUORUM_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration PROGRESS_TIMEOUT = Duration.ofSeconds(60);
    /** Below the hello timeout (tickTime x syncLimit = 2.5 s), after which any port closes a silent hello. */
    private static final int REFUSAL_PROBE_TIMEOUT_MS = 1_000;
    private static final String SECRET = "rolling-secret-19be";

    private static final List<Map<String, String>> STEPS = List.of(
            Map.of("quorum.auth.enableSasl", "true"),
            Map.of("quorum.auth.enableSasl", "true", "quorum.auth.learnerRequireSasl", "true"),
            Map.of("quorum.auth.enableSasl", "true", "quorum.auth.learnerRequireSasl", "true",
                    "quorum.auth.serverRequireSasl", "true"));

    @Test
    void aRunningEnsembleTurnsOnSaslInThreeRollingStepsWithoutLosingAnAcknowledgedWrite() throws Exception {
        Path runDir = Ensembles.runDir("quorum-sasl-rolling");
        LocalCluster cluster = LocalCluster.create(Ensembles.specBuilder(Flavour.WARDEN, runDir)
                .tickTimeMs(TICK_TIME_MS).build());
        for (int id : cluster.ids()) {
            Path jaas = Files.writeString(cluster.member(id).dir().resolve("jaas.conf"), """
                    QuorumServer {
                      org.apache.zookeeper.server.auth.DigestLoginModule required
                      user_zkquorum="%s";
                    };
                    QuorumLearner {
                      org.apache.zookeeper.server.auth.DigestLoginModule required
                      username="zkquorum"
                      password="%s";
                    };
                    """.formatted(SECRET, SECRET));
            Ensembles.setKeys(cluster.member(id).configFile(), Map.of("java.security.auth.login.config",
                    jaas.toString()));
        }
        boolean passed = false;
        try {
            cluster.startAll();
            cluster.awaitQuorum(QUORUM_TIMEOUT);
            try (WriteLoad load = WriteLoad.start(cluster, 2, 25, SESSION_TIMEOUT_MS)) {
                load.awaitEveryClientProgresses(5, PROGRESS_TIMEOUT, "before the switch");
                List<String> restarts = new ArrayList<>();
                for (int step = 1; step <= STEPS.size(); step++) {
                    for (int id : restartOrder(cluster)) {
                        cluster.stop(id);
                        Ensembles.setKeys(cluster.member(id).configFile(), STEPS.get(step - 1));
                        cluster.start(id);
                        cluster.awaitQuorum(QUORUM_TIMEOUT);
                        load.awaitEveryClientProgresses(5, PROGRESS_TIMEOUT,
                                "step " + step + ", member " + id + " restarted with " + STEPS.get(step - 1));
                        restarts.add(step + ":" + id);
                    }
                }
                load.stop();
                EnsembleChecks.exactlyOneLeader(cluster);
                EnsembleChecks.allMembersAgreeAndKeepEveryAcknowledgedWrite(cluster, load.ledgers());
                assertEquals(9, restarts.size());
                System.out.println("rolling SASL switch, restarts (step:member) " + restarts + "; " + load.summary());
            }
            for (int id : cluster.ids()) {
                String log = Files.readString(cluster.member(id).stderrFile(), StandardCharsets.UTF_8);
                assertTrue(log.contains("authenticated as zkquorum (DIGEST-MD5"), "member " + id
                        + " logs members authenticated with SASL");
                assertFalse(log.contains(SECRET), "member " + id + " logged the password");
                int other = id == 1 ? 2 : 1;
                assertTrue(refusesUnauthenticatedHello(cluster.member(id).ports().peerPort(), other),
                        "member " + id + " refuses a hello claiming member " + other + " without SASL");
            }
            passed = true;
        } finally {
            Ensembles.closeAndDeleteIfPassed(cluster, passed);
        }
    }

    /** Followers first, the leader last: one election per step. */
    private static List<Integer> restartOrder(LocalCluster cluster) throws InterruptedException {
        int leader = cluster.awaitQuorum(QUORUM_TIMEOUT);
        List<Integer> order = new ArrayList<>(cluster.ids());
        order.remove(Integer.valueOf(leader));
        order.add(leader);
        return order;
    }

    /** A whole plaintext hello (peer protocol version 5, no SASL flag) naming a real member: closed at once. */
    private static boolean refusesUnauthenticatedHello(int port, long claimedId) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(REFUSAL_PROBE_TIMEOUT_MS);
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            out.writeInt(20);
            out.writeInt(0x5741_5a42);
            out.writeInt(5);
            out.writeLong(claimedId);
            out.writeInt(0);
            out.flush();
            InputStream in = socket.getInputStream();
            try {
                return in.read() == -1;
            } catch (SocketTimeoutException taken) {
                return false;
            } catch (SocketException reset) {
                return true;
            }
        }
    }
}
