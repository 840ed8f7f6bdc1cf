package dev.warden.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.client.support.Events;
import dev.warden.protocol.CreateMode;
import dev.warden.server.EnsembleTestLimits;
import dev.warden.server.FreePorts;
import dev.warden.server.WardenServer;
import dev.warden.server.config.QuorumMember;
import dev.warden.server.config.ServerConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * canBeReadOnly against a Warden ensemble with readonlymode.enabled whose members 1 and 2 are
 * stopped: the client gets a read-only session on member 3, reads, is refused writes, and moves
 * to read-write (a new session) once a read-write server answers it.
 */
class ReadOnlyModeClientTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final int TICK_MS = 200;

    private final Map<Long, ServerConfig> configs = new HashMap<>();
    private final Map<Long, WardenServer> running = new HashMap<>();
    private final List<AutoCloseable> closeLast = new ArrayList<>();
    private WardenClient client;

    @AfterEach
    void stop() throws Exception {
        if (client != null) {
            client.close();
        }
        for (WardenServer server : running.values()) {
            server.close();
        }
        for (AutoCloseable each : closeLast) {
            each.close();
        }
    }

    @Test
    void aReadOnlySessionReadsThenMovesToReadWriteWhenTheQuorumReturns(@TempDir Path dir) throws Exception {
        startEnsemble(dir);
        write(3, "/kept", "before");
        running.remove(1L).close();
        running.remove(2L).close();
        awaitReadOnly(3);

        Events states = new Events();
        client = WardenClient.builder().connectString(connectString(3) + "," + connectString(1) + ","
                        + connectString(2)).hostsInGivenOrder().canBeReadOnly().sessionTimeout(Duration.ofSeconds(10))
                .connectTimeout(Duration.ofSeconds(2)).stateListener(states).connect().get(30, TimeUnit.SECONDS);
        assertEquals(ConnectionState.CONNECTED_READ_ONLY, states.nextState(WAIT));
        long readOnlySession = client.sessionId();
        assertArrayEquals("before".getBytes(StandardCharsets.UTF_8), client.getData("/kept").get().data());
        assertTrue(client.getChildren("/").get().contains("kept"));
        ExecutionException refused = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                () -> client.create("/new", new byte[0], CreateMode.PERSISTENT).get(10, TimeUnit.SECONDS));
        assertInstanceOf(WardenException.NotReadOnlyException.class, refused.getCause());

        start(1);
        start(2);
        states.awaitState(ConnectionState.CONNECTED, WAIT);
        assertNotEquals(readOnlySession, client.sessionId(), "a read-write server gives a new session");
        client.create("/after", new byte[0], CreateMode.PERSISTENT).get(10, TimeUnit.SECONDS);
        assertTrue(client.exists("/after").get().isPresent());
    }

    /**
     * The client asks the other servers of its list (isro) while its session is read-only, and
     * moves to the first that serves read-write, though its own member stays cut off. Here that
     * server is a standalone server on a copy of a stopped member's data, listed after the
     * read-only member in the connect string.
     */
    @Test
    void aReadOnlyClientFindsAReadWriteServerOnItsOwn(@TempDir Path dir) throws Exception {
        startEnsemble(dir);
        running.remove(1L).close();
        running.remove(2L).close();
        awaitReadOnly(3);
        // a standalone server on a copy of stopped member 1's data: it has seen every zxid member 3
        // has, so it takes the client (a server refuses a client that has seen more than it has)
        Path copy = copyTree(configs.get(1L).dataDir(), dir.resolve("standalone"));
        WardenServer readWrite = WardenServer.start(ServerConfig.builder().dataDir(copy)
                .clientPort(0).clientPortAddress("127.0.0.1").readOnlyModeEnabled(true).build());
        closeLast.add(readWrite);

        Events states = new Events();
        client = WardenClient.builder().connectString(connectString(3) + ",127.0.0.1:" + readWrite.clientPort())
                .hostsInGivenOrder().canBeReadOnly().sessionTimeout(Duration.ofSeconds(10))
                .connectTimeout(Duration.ofSeconds(2)).stateListener(states).connect().get(30, TimeUnit.SECONDS);
        assertEquals(ConnectionState.CONNECTED_READ_ONLY, states.nextState(WAIT));
        states.awaitState(ConnectionState.CONNECTED, WAIT);
        assertEquals(readWrite.clientPort(), client.connectedServer().orElseThrow().getPort());
        client.create("/on-the-read-write-server", new byte[0], CreateMode.PERSISTENT).get(10, TimeUnit.SECONDS);
    }

    private static Path copyTree(Path from, Path to) throws IOException {
        try (var paths = java.nio.file.Files.walk(from)) {
            for (Path source : paths.toList()) {
                java.nio.file.Files.copy(source, to.resolve(from.relativize(source).toString()));
            }
        }
        return to;
    }

    private void startEnsemble(Path dir) throws Exception {
        Map<Long, QuorumMember> members = new HashMap<>();
        for (long id = 1; id <= 3; id++) {
            members.put(id, new QuorumMember(id, "127.0.0.1", FreePorts.pick(), FreePorts.pick(), false, null, 0));
        }
        for (long id = 1; id <= 3; id++) {
            configs.put(id, ServerConfig.builder().dataDir(dir.resolve("m" + id)).clientPort(FreePorts.pick())
                    .clientPortAddress("127.0.0.1").tickTimeMs(TICK_MS).serverId((int) id)
                    .initLimitTicks(EnsembleTestLimits.LIMIT_TICKS).syncLimitTicks(EnsembleTestLimits.LIMIT_TICKS)
                    .members(members).readOnlyModeEnabled(true).build());
        }
        for (long id = 1; id <= 3; id++) {
            start(id);
        }
        for (long id = 1; id <= 3; id++) {
            awaitMode(id, false);
        }
    }

    private void start(long id) throws IOException {
        running.put(id, WardenServer.start(configs.get(id)));
    }

    private String connectString(long id) {
        return "127.0.0.1:" + configs.get(id).clientPort();
    }

    private void write(long id, String path, String data) throws Exception {
        try (WardenClient writer = WardenClient.builder().connectString(connectString(id)).connect()
                .get(30, TimeUnit.SECONDS)) {
            writer.create(path, data.getBytes(StandardCharsets.UTF_8), CreateMode.PERSISTENT).get(10, TimeUnit.SECONDS);
        }
    }

    private void awaitReadOnly(long id) throws InterruptedException {
        awaitMode(id, true);
    }

    /** Waits until member {@code id} serves read-write, or, with {@code readOnly}, read-only sessions. */
    private void awaitMode(long id, boolean readOnly) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            var member = running.get(id).member();
            boolean there = readOnly ? member.status().readOnly() : member.isServing();
            if (there) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("member " + id + (readOnly ? " not read-only" : " not serving") + " within " + WAIT);
    }
}
