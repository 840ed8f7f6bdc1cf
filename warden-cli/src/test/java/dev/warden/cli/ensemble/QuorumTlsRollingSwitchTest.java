package dev.warden.cli.ensemble;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.cli.cluster.Flavour;
import dev.warden.cli.cluster.LocalCluster;
import dev.warden.cli.cluster.MemberPorts;
import dev.warden.server.security.TestPki;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A running 3-member ensemble of separate JVMs switched from plaintext to TLS between members by
 * rolling restarts in ZooKeeper's three steps, under a write load: every member restarted with
 * {@code portUnification=true} (still dialling in plaintext), then with {@code sslQuorum=true}
 * too, then without {@code portUnification}. Writes must go on through every restart, and at the
 * end no acknowledged write is lost, there is one leader, every tree is the same, and the peer
 * and election ports take TLS only.
 */
class QuorumTlsRollingSwitchTest {
    private static final int TICK_TIME_MS = 500;
    private static final int SESSION_TIMEOUT_MS = 6_000;
    private static final int LOAD_SESSIONS = 2;
    private static final int KEYS_PER_SESSION = 25;
    private static final int PROGRESS_WRITES = 5;
    private static final Duration QUORUM_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration PROGRESS_TIMEOUT = Duration.ofSeconds(60);
    /** Below the hello timeout (tickTime x syncLimit = 2.5 s), after which any port closes a silent hello. */
    private static final int PLAINTEXT_PROBE_TIMEOUT_MS = 1_000;

    /** The keys each step sets, in ZooKeeper's order. */
    private static final List<Map<String, String>> STEPS = List.of(
            Map.of("portUnification", "true", "sslQuorum", "false"),
            Map.of("portUnification", "true", "sslQuorum", "true"),
            Map.of("portUnification", "false", "sslQuorum", "true"));

    @Test
    void aRunningEnsembleSwitchesToTlsInThreeRollingStepsWithoutLosingAnAcknowledgedWrite() throws Exception {
        Path runDir = Ensembles.runDir("quorum-tls-rolling");
        TestPki ca = TestPki.create(runDir.resolve("pki"), "members-ca");
        // PEM: a member JVM reads it in milliseconds, where a PKCS12 store's key derivation costs a
        // cold JVM far more at each of the nine starts
        Path memberKeys = ca.keyStore(ca.issue("warden-member"), TestPki.StoreType.PEM);
        Path trust = ca.trustStore(TestPki.StoreType.PEM);
        LocalCluster cluster = Ensembles.startCluster(Ensembles.specBuilder(Flavour.WARDEN, runDir)
                .tickTimeMs(TICK_TIME_MS)
                .configLine("ssl.quorum.keyStore.location=" + memberKeys)
                .configLine("ssl.quorum.trustStore.location=" + trust)
                .build());
        boolean passed = false;
        try (WriteLoad load = WriteLoad.start(cluster, LOAD_SESSIONS, KEYS_PER_SESSION, SESSION_TIMEOUT_MS)) {
            load.awaitEveryClientProgresses(PROGRESS_WRITES, PROGRESS_TIMEOUT, "before the switch");
            List<String> restarts = new ArrayList<>();
            for (int step = 1; step <= STEPS.size(); step++) {
                for (int id : restartOrder(cluster)) {
                    long startNs = System.nanoTime();
                    cluster.stop(id);
                    long stoppedNs = System.nanoTime();
                    Ensembles.setKeys(cluster.member(id).configFile(), STEPS.get(step - 1));
                    cluster.start(id);
                    cluster.awaitQuorum(QUORUM_TIMEOUT);
                    long servingNs = System.nanoTime();
                    load.awaitEveryClientProgresses(PROGRESS_WRITES, PROGRESS_TIMEOUT,
                            "step " + step + ", member " + id + " restarted with " + STEPS.get(step - 1));
                    restarts.add(step + ":" + id + " (stop " + (stoppedNs - startNs) / 1_000_000 + " ms, serving "
                            + (servingNs - stoppedNs) / 1_000_000 + " ms, writes "
                            + (System.nanoTime() - servingNs) / 1_000_000 + " ms)");
                }
            }
            load.stop();
            EnsembleChecks.exactlyOneLeader(cluster);
            EnsembleChecks.allMembersAgreeAndKeepEveryAcknowledgedWrite(cluster, load.ledgers());
            for (int id : cluster.ids()) {
                MemberPorts ports = cluster.member(id).ports();
                for (int port : List.of(ports.peerPort(), ports.electionPort())) {
                    assertTrue(refusesPlaintextHello(port), "member " + id + " port " + port
                            + " takes TLS only after the last step; " + cluster.describe());
                }
                String log = Files.readString(cluster.member(id).stderrFile(), StandardCharsets.UTF_8);
                assertTrue(log.contains("TLS only"), "member " + id + " says its ports take TLS only");
            }
            assertEquals(9, restarts.size());
            System.out.println("rolling TLS switch, restarts (step:member) " + restarts + "; " + load.summary());
            passed = true;
        } finally {
            Ensembles.closeAndDeleteIfPassed(cluster, passed);
        }
    }

    /** Followers first, the leader last, as an operator would: one election per step. */
    private static List<Integer> restartOrder(LocalCluster cluster) throws InterruptedException {
        int leader = cluster.awaitQuorum(QUORUM_TIMEOUT);
        List<Integer> order = new ArrayList<>(cluster.ids());
        order.remove(Integer.valueOf(leader));
        order.add(leader);
        return order;
    }

    /**
     * A TLS-only port closes a connection at its first plaintext byte; a port that takes
     * plaintext would wait for the rest of this hello (the length field and magic of a 20-byte
     * hello) until the hello timeout (tickTime x syncLimit, 2.5 s here), longer than this probe waits.
     */
    private static boolean refusesPlaintextHello(int port) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(PLAINTEXT_PROBE_TIMEOUT_MS);
            ByteBuffer hello = ByteBuffer.allocate(8).putInt(20).putInt(0x5741_5a42);
            socket.getOutputStream().write(hello.array());
            InputStream in = socket.getInputStream();
            try {
                return in.read() == -1;
            } catch (SocketTimeoutException stillWaiting) {
                return false;
            } catch (SocketException reset) {
                return true;
            }
        }
    }
}
