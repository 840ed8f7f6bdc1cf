package dev.warden.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.warden.consensus.Role;
import dev.warden.server.EnsembleTestLimits;
import dev.warden.server.FreePorts;
import dev.warden.server.WardenServer;
import dev.warden.server.config.QuorumMember;
import dev.warden.server.config.ServerConfig;
import dev.warden.server.quorum.ZabConsensus;
import dev.warden.state.common.Clock;
import dev.warden.storage.TxnLogOptions;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Clients that follow the configuration ({@link WardenClientBuilder#followConfiguration()})
 * against a Warden ensemble in this JVM growing from 3 to 5 members through {@code reconfig}:
 * given one member's address, they spread over the three, and once two members join, a share of
 * them moves to the joiners, every session kept.
 */
class FollowConfigurationEnsembleTest {
    private static final int TICK_MS = 200;
    private static final int CLIENTS = 12;
    private static final long TIMEOUT_MS = 20_000;
    /** "super:test", as the module's surefire setting gives Apache's servers. */
    private static final String SUPER_DIGEST = "super:D/InIHSb7yEEbrWz8b9l71RjZJU=";

    @TempDir
    Path dir;

    private final Map<Long, QuorumMember> lines = new TreeMap<>();
    private final Map<Long, WardenServer> servers = new HashMap<>();
    private final List<WardenClient> clients = new ArrayList<>();

    @AfterEach
    void tearDown() {
        clients.forEach(WardenClient::close);
        servers.values().forEach(WardenServer::close);
    }

    private QuorumMember line(long id) {
        return lines.computeIfAbsent(id, key -> new QuorumMember(key, "127.0.0.1", FreePorts.pick(), FreePorts.pick(),
                false, "127.0.0.1", FreePorts.pick()));
    }

    /** Starts {@code id} with {@code memberIds} as its files' member list (a joiner lists itself too). */
    private void start(long id, List<Long> memberIds) throws Exception {
        Map<Long, QuorumMember> members = new HashMap<>();
        memberIds.forEach(member -> members.put(member, line(member)));
        ServerConfig config = ServerConfig.builder()
                .dataDir(dir.resolve("m" + id)).clientPort(line(id).clientPort()).clientPortAddress("127.0.0.1")
                .tickTimeMs(TICK_MS).serverId((int) id)
                .initLimitTicks(EnsembleTestLimits.LIMIT_TICKS).syncLimitTicks(EnsembleTestLimits.LIMIT_TICKS)
                .members(members).reconfigEnabled(true).superDigest(SUPER_DIGEST)
                .build();
        servers.put(id, WardenServer.start(config, Clock.SYSTEM, TxnLogOptions.defaults().channels(),
                ZabConsensus::new));
    }

    private void awaitLeader() throws InterruptedException {
        awaitTrue("every member serving under one leader", () -> servers.values().stream()
                .allMatch(s -> s.member().isServing())
                && servers.values().stream().anyMatch(s -> s.member().role() == Role.LEADING));
    }

    private static void awaitTrue(String what, java.util.function.BooleanSupplier condition)
            throws InterruptedException {
        awaitTrue(() -> what, condition);
    }

    private static void awaitTrue(java.util.function.Supplier<String> what, java.util.function.BooleanSupplier condition)
            throws InterruptedException {
        long deadline = System.currentTimeMillis() + TIMEOUT_MS;
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("not within " + TIMEOUT_MS + " ms: " + what.get());
            }
            Thread.sleep(20);
        }
    }

    /** The member ids the clients are connected to now. */
    private Set<Long> membersInUse() {
        Set<Long> used = new TreeSet<>();
        for (WardenClient client : clients) {
            client.connectedServer().map(InetSocketAddress::getPort).ifPresent(port -> lines.values().stream()
                    .filter(line -> line.clientPort() == port).forEach(line -> used.add(line.id())));
        }
        return used;
    }

    private void awaitClientsOn(String what, Predicate<Set<Long>> members) throws InterruptedException {
        awaitTrue(() -> what + " (clients on members " + membersInUse() + ", at " + clients.stream()
                .map(client -> client.connectedServer().map(Object::toString).orElse("none")).toList()
                + "; members' client ports " + lines.values().stream().map(line -> line.id() + "=" + line.clientPort())
                .toList() + ")", () -> members.test(membersInUse()));
    }

    @Test
    void clientsGivenOneMemberSpreadOverTheEnsembleAndMoveToMembersThatJoin() throws Exception {
        for (long id = 1; id <= 3; id++) {
            start(id, List.of(1L, 2L, 3L));
        }
        awaitLeader();
        String onlyMemberOne = "127.0.0.1:" + line(1).clientPort();
        List<Long> sessions = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
            WardenClient client = WardenClient.builder().connectString(onlyMemberOne).shuffleSeed(i)
                    .sessionTimeout(Duration.ofSeconds(30)).followConfiguration().connect().join();
            clients.add(client);
            sessions.add(client.sessionId());
        }
        awaitClientsOn("clients moved from member 1 to the others it lists", used -> used.size() > 1);

        start(4, List.of(1L, 2L, 3L, 4L));
        start(5, List.of(1L, 2L, 3L, 5L));
        try (WardenClient admin = WardenClient.builder().connectString(onlyMemberOne)
                .sessionTimeout(Duration.ofSeconds(30)).connect().join()) {
            admin.addAuth("digest", "super:test".getBytes(StandardCharsets.UTF_8)).join();
            String answer = new String(admin.admin().reconfigure(List.of("server.4=" + line(4).toSpec(),
                    "server.5=" + line(5).toSpec()), List.of(), WardenAdmin.ANY_VERSION).join().data(),
                    StandardCharsets.UTF_8);
            assertEquals(5, ConfigClientAddresses.parse(answer).size(), answer);
        }
        awaitClientsOn("a share of the clients moved to the members that joined",
                used -> used.contains(4L) || used.contains(5L));

        for (int i = 0; i < CLIENTS; i++) {
            WardenClient client = clients.get(i);
            client.exists("/").join();
            assertEquals(sessions.get(i), client.sessionId(), "client " + i + " kept its session");
        }
    }
}
