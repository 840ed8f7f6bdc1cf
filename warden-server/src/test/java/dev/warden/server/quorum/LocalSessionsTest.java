package dev.warden.server.quorum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.consensus.Role;
import dev.warden.protocol.ConnectRequest;
import dev.warden.protocol.ConnectResponse;
import dev.warden.protocol.JuteReader;
import dev.warden.protocol.JuteWriter;
import dev.warden.server.ApacheClients;
import dev.warden.server.WardenServer;
import dev.warden.server.config.LocalSessionSettings;
import dev.warden.state.session.SessionTracker;
import java.io.DataInputStream;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * localSessionsEnabled and localSessionsUpgradingEnabled on a three-member ensemble, with the
 * Apache client, against what ZooKeeper does: a session opened on a follower costs no
 * transaction and lives on that member alone; its reads and writes work; its first ephemeral
 * create makes it global (or, without upgrading, fails EPHEMERALONLOCALSESSION); it cannot move
 * to another member; it expires and closes on its member only.
 */
class LocalSessionsTest {
    private TestEnsemble ensemble;
    private final List<ZooKeeper> clients = new ArrayList<>();

    @AfterEach
    void stop() throws InterruptedException {
        for (ZooKeeper zk : clients) {
            zk.close();
        }
        if (ensemble != null) {
            ensemble.close();
        }
    }

    private void start(Path dir, boolean upgrading) throws Exception {
        start(dir, upgrading, TestEnsemble.TICK_MS * 20);
    }

    private void start(Path dir, boolean upgrading, int maxSessionTimeoutMs) throws Exception {
        ensemble = new TestEnsemble(dir, List.of(1L, 2L, 3L), List.of(), ZabConsensus::new);
        ensemble.configureAll(b -> b.localSessions(new LocalSessionSettings(true, upgrading))
                .maxSessionTimeoutMs(maxSessionTimeoutMs));
        ensemble.startAll();
        ensemble.awaitAllServing(20_000);
    }

    private long leader() {
        return ensemble.servers().entrySet().stream()
                .filter(e -> e.getValue().member().role() == Role.LEADING).map(Map.Entry::getKey)
                .findFirst().orElseThrow();
    }

    private long follower(long leader, int which) {
        return List.of(1L, 2L, 3L).stream().filter(id -> id != leader).skip(which).findFirst().orElseThrow();
    }

    private SessionTracker sessions(long id) {
        return ensemble.server(id).member().sessions();
    }

    private long lastZxid(long id) {
        return ensemble.server(id).member().lastAppliedZxid();
    }

    private ZooKeeper connect(long id) throws Exception {
        ZooKeeper zk = ApacheClients.connect(ensemble.connectString(id));
        clients.add(zk);
        return zk;
    }

    @Test
    void aLocalSessionReadsAndWritesAndItsOpeningAndClosingCostNoTransaction(@TempDir Path dir) throws Exception {
        start(dir, true);
        long leader = leader();
        long follower = follower(leader, 0);
        long before = lastZxid(leader);

        ZooKeeper zk = connect(follower);
        long id = zk.getSessionId();
        assertTrue(sessions(follower).isLocal(id));
        assertNull(sessions(leader).get(id), "the leader never heard of it");
        assertEquals(before, lastZxid(leader), "opening a local session wrote nothing");
        assertEquals(id >>> 56, follower, "the id carries its member's id, so no other member makes it");
        String mntr = EnsembleTest.fourLetterWord(ensemble.connectString(follower), "mntr");
        assertTrue(mntr.contains("zk_local_sessions\t1\n"), mntr);
        assertTrue(mntr.contains("zk_global_sessions\t0\n"), mntr);

        zk.create("/local", "a".getBytes(), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        zk.setData("/local", "b".getBytes(), 0);
        zk.multi(List.of(Op.create("/local/c", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT),
                Op.setData("/local", "c".getBytes(), 1)));
        assertEquals("c", new String(zk.getData("/local", false, null)));
        assertEquals(List.of("c"), zk.getChildren("/local", false));
        assertEquals(0, zk.exists("/local/c", false).getEphemeralOwner());
        assertTrue(sessions(follower).isLocal(id), "writes without ephemerals leave it local");

        long afterWrites = lastZxid(follower);
        zk.close();
        clients.remove(zk);
        await(() -> sessions(follower).get(id) == null, "the follower forgets the closed local session");
        assertEquals(0, sessions(follower).localCount());
        assertEquals(afterWrites, lastZxid(follower), "closing a local session wrote nothing");
        assertEquals(afterWrites, lastZxid(leader));
    }

    @Test
    void anEphemeralCreateUpgradesTheSessionAndTheNodeLivesInTheGlobalTree(@TempDir Path dir) throws Exception {
        start(dir, true);
        long leader = leader();
        long follower = follower(leader, 0);
        long other = follower(leader, 1);

        ZooKeeper zk = connect(follower);
        long id = zk.getSessionId();
        assertTrue(sessions(follower).isLocal(id));
        zk.create("/eph", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL);
        assertFalse(sessions(follower).isLocal(id), "the ephemeral create made it global");
        assertNotNull(sessions(leader).get(id));
        await(() -> sessions(other).get(id) != null, "every member knows the upgraded session");

        ZooKeeper elsewhere = connect(other);
        elsewhere.sync("/", (rc, path, ctx) -> { }, null);
        Stat stat = elsewhere.exists("/eph", false);
        assertNotNull(stat);
        assertEquals(id, stat.getEphemeralOwner());
        // a second ephemeral on the same, now global, session takes no second upgrade
        zk.create("/eph2", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL_SEQUENTIAL);
        String mntr = EnsembleTest.fourLetterWord(ensemble.connectString(follower), "mntr");
        assertTrue(mntr.contains("zk_local_sessions\t0\n"), mntr);

        zk.close();
        clients.remove(zk);
        await(() -> {
            try {
                return elsewhere.exists("/eph", false) == null;
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }, "closing the global session removes its ephemeral nodes everywhere");
    }

    @Test
    void aCloseRightAfterTheUpgradingCreateClosesTheGlobalSessionAndItsEphemeral(@TempDir Path dir)
            throws Exception {
        // a session timeout longer than the wait below: only a close, not expiry, ends it in time
        start(dir, true, 120_000);
        long leader = leader();
        long follower = follower(leader, 0);
        ZooKeeper zk = new ZooKeeper(ensemble.connectString(follower), 60_000, event -> { });
        clients.add(zk);
        await(() -> zk.getState() == ZooKeeper.States.CONNECTED, "connected");
        long id = zk.getSessionId();
        CountDownLatch created = new CountDownLatch(1);
        // asynchronous: the close is sent before the create (and the upgrade before it) is answered
        zk.create("/short", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL,
                (rc, path, ctx, name) -> created.countDown(), null);
        zk.close();
        clients.remove(zk);
        ZooKeeper other = connect(leader);
        await(() -> sessions(leader).get(id) == null && sessions(follower).get(id) == null,
                "the session is gone everywhere");
        assertNull(other.exists("/short", false), "its ephemeral went with it");
    }

    @Test
    void anEphemeralInAMultiUpgradesTooAndSurvivesAMoveOfTheNowGlobalSession(@TempDir Path dir) throws Exception {
        start(dir, true);
        long leader = leader();
        long follower = follower(leader, 0);
        ZooKeeper zk = connect(follower);
        zk.multi(List.of(Op.create("/m", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL)));
        assertFalse(sessions(follower).isLocal(zk.getSessionId()));
        // global now: the same session may reconnect to another member
        ZooKeeper moved = new ZooKeeper(ensemble.connectString(follower(leader, 1)), 10_000, event -> { },
                zk.getSessionId(), zk.getSessionPasswd());
        clients.add(moved);
        await(() -> moved.getState() == ZooKeeper.States.CONNECTED, "the upgraded session moves");
        assertEquals(zk.getSessionId(), moved.exists("/m", false).getEphemeralOwner());
    }

    @Test
    void withoutUpgradingAnEphemeralCreateFailsAsInZooKeeper(@TempDir Path dir) throws Exception {
        start(dir, false);
        long leader = leader();
        for (long member : List.of(follower(leader, 0), leader)) {
            ZooKeeper zk = connect(member);
            assertTrue(sessions(member).isLocal(zk.getSessionId()), "local on member " + member);
            assertThrows(KeeperException.EphemeralOnLocalSessionException.class,
                    () -> zk.create("/e" + member, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL));
            KeeperException multi = assertThrows(KeeperException.class, () -> zk.multi(List.of(
                    Op.create("/p" + member, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT),
                    Op.create("/q" + member, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL))));
            assertEquals(KeeperException.Code.EPHEMERALONLOCALSESSION, multi.code());
            assertNull(zk.exists("/p" + member, false), "nothing of the refused multi was applied");
            // the session is still good for everything else
            zk.create("/ok" + member, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            assertTrue(sessions(member).isLocal(zk.getSessionId()));
        }
    }

    @Test
    void aLocalSessionCannotMoveToAnotherMember(@TempDir Path dir) throws Exception {
        start(dir, true);
        long leader = leader();
        long follower = follower(leader, 0);
        ZooKeeper zk = connect(follower);

        CountDownLatch expired = new CountDownLatch(1);
        ZooKeeper moved = new ZooKeeper(ensemble.connectString(follower(leader, 1)), 10_000, event -> {
            if (event.getState() == Watcher.Event.KeeperState.Expired) {
                expired.countDown();
            }
        }, zk.getSessionId(), zk.getSessionPasswd());
        clients.add(moved);
        assertTrue(expired.await(20, TimeUnit.SECONDS), "another member answers SESSIONEXPIRED");
        // to its own member it may come back
        ZooKeeper back = new ZooKeeper(ensemble.connectString(follower), 10_000, event -> { },
                zk.getSessionId(), zk.getSessionPasswd());
        clients.add(back);
        await(() -> back.getState() == ZooKeeper.States.CONNECTED, "the local session reconnects to its member");
        assertNotNull(back.exists("/", false));
    }

    @Test
    void aQuietLocalSessionExpiresOnItsMemberOnly(@TempDir Path dir) throws Exception {
        start(dir, true);
        long leader = leader();
        long follower = follower(leader, 0);
        long before = lastZxid(leader);
        String[] hostPort = ensemble.connectString(follower).split(":");
        try (Socket socket = new Socket(hostPort[0], Integer.parseInt(hostPort[1]))) {
            socket.setSoTimeout(20_000);
            ConnectResponse session = handshake(socket, 2 * TestEnsemble.TICK_MS);
            long id = session.sessionId();
            assertTrue(sessions(follower).isLocal(id));
            // no pings: the follower expires it and hangs up
            assertEquals(-1, socket.getInputStream().read(), "the member closes the expired session's connection");
            assertNull(sessions(follower).get(id));
            assertEquals(before, lastZxid(leader), "expiring a local session wrote nothing");

            CountDownLatch expired = new CountDownLatch(1);
            ZooKeeper again = new ZooKeeper(ensemble.connectString(follower), 10_000, event -> {
                if (event.getState() == Watcher.Event.KeeperState.Expired) {
                    expired.countDown();
                }
            }, id, session.passwd());
            clients.add(again);
            assertTrue(expired.await(20, TimeUnit.SECONDS), "the expired local session is gone");
        }
    }

    private static ConnectResponse handshake(Socket socket, int timeoutMs) throws Exception {
        JuteWriter out = new JuteWriter(64);
        out.writeInt(0);
        new ConnectRequest(0, 0, timeoutMs, 0, new byte[16], false, true).writeTo(out);
        out.setInt(0, out.size() - 4);
        socket.getOutputStream().write(out.array(), 0, out.size());
        socket.getOutputStream().flush();
        DataInputStream in = new DataInputStream(socket.getInputStream());
        byte[] frame = new byte[in.readInt()];
        in.readFully(frame);
        return ConnectResponse.read(new JuteReader(frame, 0, frame.length, frame.length));
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 20_000;
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("not within 20 s: " + what);
            }
            Thread.sleep(10);
        }
    }
}
