package dev.warden.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.client.support.ApacheEnsemble;
import dev.warden.client.support.Events;
import dev.warden.protocol.CreateMode;
import dev.warden.protocol.ErrorCode;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The admin view, getConfig's watch and updateServerList against a three-member Apache
 * ZooKeeper ensemble with reconfigEnabled=true; the session authenticates as ZooKeeper's super
 * user (the surefire configuration sets its digest).
 */
class ApacheReconfigTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    private ApacheEnsemble ensemble;

    @BeforeEach
    void start() {
        ensemble = new ApacheEnsemble(true);
    }

    @AfterEach
    void stop() {
        ensemble.close();
    }

    private WardenClient connect(String connectString, Events states) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                WardenClient client = WardenClient.builder().connectString(connectString)
                        .sessionTimeout(Duration.ofSeconds(10)).connectTimeout(Duration.ofSeconds(2))
                        .stateListener(states).connect().get(15, TimeUnit.SECONDS);
                client.addAuth("digest", "super:test".getBytes(StandardCharsets.UTF_8)).get(10, TimeUnit.SECONDS);
                client.exists("/").get(10, TimeUnit.SECONDS);   // the ensemble serves
                return client;
            } catch (Exception e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(200);
            }
        }
    }

    private static String text(DataAndStat config) {
        return new String(config.data(), StandardCharsets.UTF_8);
    }

    private static long version(DataAndStat config) {
        for (String line : text(config).split("\n")) {
            if (line.startsWith("version=")) {
                return Long.parseLong(line.substring("version=".length()), 16);
            }
        }
        throw new AssertionError("no version line in " + text(config));
    }

    @Test
    void removeAndAddAMemberWatchingTheConfigThroughAChroot() throws Exception {
        try (WardenClient root = connect(ensemble.connectString(), new Events())) {
            root.create("/app", new byte[0], CreateMode.PERSISTENT).join();
        }
        Events config = new Events();
        // A follower leaves (a leaving leader would drop every connection), and the client talks to
        // the other two members, since a leaving member drops its clients' connections.
        int leader = ensemble.leaderIndex();
        int leaving = leader == 2 ? 1 : 2;
        int staying = 3 - leader - leaving;
        String leavingId = Integer.toString(leaving + 1);
        try (WardenClient client = connect(ensemble.address(leader) + "," + ensemble.address(staying) + "/app", new Events())) {
            DataAndStat before = client.getConfig(config).join();
            assertTrue(text(before).contains("server." + leavingId + "="), text(before));

            DataAndStat after = reconfigure(client, List.of(), List.of(leavingId), WardenAdmin.ANY_VERSION);
            assertFalse(text(after).contains("server." + leavingId + "="), text(after));
            assertNotEquals(version(before), version(after));
            WatchEvent changed = config.nextEvent(WAIT);
            assertEquals(WatchEvent.Kind.NODE_DATA_CHANGED, changed.kind());
            assertEquals("/zookeeper/config", changed.path(), "the config watch reports the server path under a chroot");
            assertEquals(text(after), text(client.getConfig().join()));

            // A reconfig from a version that is no longer current is refused.
            Throwable stale = client.admin().reconfigure(List.of(ensemble.memberSpec(leaving)), List.of(), version(before))
                    .handle((ok, e) -> e).get(30, TimeUnit.SECONDS);
            Throwable cause = stale instanceof CompletionException ? stale.getCause() : stale;
            assertEquals(ErrorCode.BAD_VERSION, assertInstanceOf(WardenException.class, cause).code());

            DataAndStat back = reconfigure(client, List.of(ensemble.memberSpec(leaving)), List.of(), version(after));
            assertTrue(text(back).contains("server." + leavingId + "="), text(back));
        }
    }

    /**
     * An incremental reconfig, repeated while ZooKeeper answers NEWCONFIGNOQUORUM: it does so until
     * a quorum of the new configuration follows the leader and is synced, which on a loaded
     * machine takes seconds after the ensemble first serves a client (for the removal) and after
     * a removed member left (for adding it back). An operator would repeat it the same way.
     */
    private static DataAndStat reconfigure(WardenClient client, List<String> joining, List<String> leaving,
                                           long fromVersion) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try {
                return client.admin().reconfigure(joining, leaving, fromVersion).get(30, TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException e) {
                boolean noQuorumYet = e.getCause() instanceof WardenException w && w.code() == ErrorCode.NEW_CONFIG_NO_QUORUM;
                if (!noQuorumYet || System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(500);
            }
        }
    }

    @Test
    void aClientWhoseServerLeftTheListMovesThereKeepingItsSession() throws Exception {
        Events states = new Events();
        try (WardenClient client = connect(ensemble.connectString(), states)) {
            assertEquals(ConnectionState.CONNECTED, states.nextState(WAIT));
            client.create("/mine", new byte[0], CreateMode.EPHEMERAL).join();
            InetSocketAddress current = client.connectedServer().orElseThrow();
            int index = List.of(0, 1, 2).stream().filter(i -> ensemble.address(i).endsWith(":" + current.getPort()))
                    .findFirst().orElseThrow();
            String others = List.of(0, 1, 2).stream().filter(i -> i != index).map(ensemble::address)
                    .reduce((a, b) -> a + "," + b).orElseThrow();
            long session = client.sessionId();

            assertTrue(client.updateServerList(others).join(), "a client whose server left must move");
            states.awaitState(ConnectionState.RECONNECTED, WAIT);
            InetSocketAddress now = client.connectedServer().orElseThrow();
            assertNotEquals(current.getPort(), now.getPort());
            assertTrue(others.contains(":" + now.getPort()));
            assertEquals(session, client.sessionId());
            assertTrue(client.exists("/mine").join().isPresent(), "the session and its ephemeral moved along");

            // The same list again: nobody needs to move.
            assertFalse(client.updateServerList(others).join());
        }
    }
}
