package dev.warden.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.protocol.CreateMode;
import dev.warden.protocol.ErrorCode;
import dev.warden.server.EnsembleTestLimits;
import dev.warden.server.FreePorts;
import dev.warden.server.WardenServer;
import dev.warden.server.config.LocalSessionSettings;
import dev.warden.server.config.QuorumMember;
import dev.warden.server.config.ServerConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Warden's client on a three-member ensemble with local sessions: reads and writes of a local
 * session work; its ephemeral create upgrades it (and another client sees the node) or, without
 * upgrading, fails with EPHEMERALONLOCALSESSION.
 */
class LocalSessionsWardenClientTest {
    private final List<WardenServer> servers = new ArrayList<>();
    private final List<WardenClient> clients = new ArrayList<>();

    @AfterEach
    void stop() {
        clients.forEach(WardenClient::close);
        servers.forEach(WardenServer::close);
    }

    private List<String> start(Path dir, boolean upgrading) throws Exception {
        Map<Long, QuorumMember> members = new HashMap<>();
        for (long id = 1; id <= 3; id++) {
            members.put(id, new QuorumMember(id, "127.0.0.1", FreePorts.pick(), FreePorts.pick(), false, null, 0));
        }
        List<String> addresses = new ArrayList<>();
        for (long id = 1; id <= 3; id++) {
            int clientPort = FreePorts.pick();
            servers.add(WardenServer.start(ServerConfig.builder().dataDir(dir.resolve("m" + id))
                    .clientPort(clientPort).clientPortAddress("127.0.0.1").tickTimeMs(200).serverId((int) id)
                    .initLimitTicks(EnsembleTestLimits.LIMIT_TICKS).syncLimitTicks(EnsembleTestLimits.LIMIT_TICKS)
                    .members(members).localSessions(new LocalSessionSettings(true, upgrading)).build()));
            addresses.add("127.0.0.1:" + clientPort);
        }
        long deadline = System.currentTimeMillis() + 30_000;
        while (!servers.stream().allMatch(server -> server.member().isServing())) {
            assertTrue(System.currentTimeMillis() < deadline, "the ensemble did not serve within 30 s");
            Thread.sleep(10);
        }
        return addresses;
    }

    private WardenClient connect(String address) throws Exception {
        WardenClient client = WardenClient.builder().connectString(address).sessionTimeout(Duration.ofSeconds(10))
                .connect().get(20, TimeUnit.SECONDS);
        clients.add(client);
        return client;
    }

    @Test
    void aLocalSessionWritesAndReadsAndItsEphemeralMakesItGlobal(@TempDir Path dir) throws Exception {
        List<String> addresses = start(dir, true);
        WardenClient client = connect(addresses.get(0));
        assertEquals(1, client.sessionId() >>> 56, "the member's id is in the session id");
        client.create("/w", "v".getBytes(StandardCharsets.UTF_8), CreateMode.PERSISTENT).join();
        assertEquals("v", new String(client.getData("/w").join().data(), StandardCharsets.UTF_8));

        client.create("/w/eph", new byte[0], CreateMode.EPHEMERAL).join();
        WardenClient other = connect(addresses.get(1));
        other.sync("/w").join();
        assertEquals(client.sessionId(), other.exists("/w/eph").join().orElseThrow().ephemeralOwner());
    }

    @Test
    void withoutUpgradingAnEphemeralCreateFails(@TempDir Path dir) throws Exception {
        List<String> addresses = start(dir, false);
        WardenClient client = connect(addresses.get(2));
        CompletionException failed = assertThrows(CompletionException.class,
                () -> client.create("/eph", new byte[0], CreateMode.EPHEMERAL).join());
        WardenException cause = assertInstanceOf(WardenException.class, failed.getCause());
        assertEquals(ErrorCode.EPHEMERAL_ON_LOCAL_SESSION, cause.code());
        client.create("/persistent", new byte[0], CreateMode.PERSISTENT).join();
        assertTrue(client.exists("/persistent").join().isPresent());
    }
}
