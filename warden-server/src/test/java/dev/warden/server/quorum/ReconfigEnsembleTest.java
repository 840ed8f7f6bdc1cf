package dev.warden.server.quorum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.consensus.Role;
import dev.warden.server.EnsembleTestLimits;
import dev.warden.server.FreePorts;
import dev.warden.server.WardenServer;
import dev.warden.server.config.QuorumMember;
import dev.warden.server.config.ServerConfig;
import dev.warden.state.common.Clock;
import dev.warden.storage.TxnLogOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.admin.ZooKeeperAdmin;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reconfig request against real members in this JVM (Zab core, TCP links), through Apache
 * ZooKeeper's own admin client: growing 3 → 5 with joiners started on the old member list plus
 * themselves, the answer and /zookeeper/config as ZooKeeper writes them with their watch firing,
 * removing the leader, and each refusal with ZooKeeper's error and nothing changed.
 */
class ReconfigEnsembleTest {
    private static final long SERVING_TIMEOUT_MS = 20_000;
    private static final String SUPER_PASSWORD = "reconfig-secret";

    @TempDir
    Path dir;

    private final Map<Long, QuorumMember> lines = new TreeMap<>();
    private final Map<Long, Integer> clientPorts = new HashMap<>();
    private final Map<Long, WardenServer> servers = new HashMap<>();
    private final List<ZooKeeperAdmin> clients = new ArrayList<>();
    /** skipACL=yes on the members started next. */
    private boolean skipAcl;

    @AfterEach
    void tearDown() throws Exception {
        for (ZooKeeperAdmin client : clients) {
            client.close();
        }
        servers.values().forEach(WardenServer::close);
    }

    /** Each started member's disk, so a test can hold a member's fsyncs back. */
    private final Map<Long, dev.warden.storage.FaultInjectingChannels> disks = new HashMap<>();

    private QuorumMember line(long id) {
        return lines.computeIfAbsent(id, key -> {
            int clientPort = FreePorts.pick();
            clientPorts.put(key, clientPort);
            return new QuorumMember(key, "127.0.0.1", FreePorts.pick(), FreePorts.pick(), false, "127.0.0.1",
                    clientPort);
        });
    }

    /** Starts {@code id} with {@code memberIds} as its files' member list (a joiner lists itself too). */
    private WardenServer start(long id, List<Long> memberIds, boolean reconfigEnabled) throws Exception {
        Map<Long, QuorumMember> members = new HashMap<>();
        for (long member : memberIds) {
            members.put(member, line(member));
        }
        ServerConfig config = ServerConfig.builder()
                .dataDir(dir.resolve("m" + id)).clientPort(clientPorts.get(id)).clientPortAddress("127.0.0.1")
                .tickTimeMs(TestEnsemble.TICK_MS).serverId((int) id)
                .initLimitTicks(EnsembleTestLimits.LIMIT_TICKS).syncLimitTicks(EnsembleTestLimits.LIMIT_TICKS)
                .members(members).reconfigEnabled(reconfigEnabled).skipAcl(skipAcl)
                .superDigest(dev.warden.state.auth.Digests.idFor("super:" + SUPER_PASSWORD))
                .build();
        dev.warden.storage.FaultInjectingChannels disk = new dev.warden.storage.FaultInjectingChannels();
        disks.put(id, disk);
        WardenServer server = WardenServer.start(config, Clock.SYSTEM, disk, ZabConsensus::new);
        servers.put(id, server);
        return server;
    }

    private void startThree(boolean reconfigEnabled) throws Exception {
        for (long id = 1; id <= 3; id++) {
            line(id);
        }
        for (long id = 1; id <= 3; id++) {
            start(id, List.of(1L, 2L, 3L), reconfigEnabled);
        }
        awaitLeader();
    }

    private long awaitLeader() throws InterruptedException {
        long deadline = System.currentTimeMillis() + SERVING_TIMEOUT_MS;
        while (System.currentTimeMillis() < deadline) {
            boolean allServing = true;
            long leader = -1;
            for (Map.Entry<Long, WardenServer> e : servers.entrySet()) {
                allServing &= e.getValue().member().isServing();
                if (e.getValue().member().isServing() && e.getValue().member().role() == Role.LEADING) {
                    leader = e.getKey();
                }
            }
            if (allServing && leader > 0) {
                return leader;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("not every member serves under one leader within " + SERVING_TIMEOUT_MS + " ms");
    }

    private ZooKeeperAdmin admin(long id, boolean superUser) throws Exception {
        CompletableFuture<Void> connected = new CompletableFuture<>();
        ZooKeeperAdmin client = new ZooKeeperAdmin("127.0.0.1:" + clientPorts.get(id), 10_000, event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.complete(null);
            }
        });
        clients.add(client);
        connected.get(10, TimeUnit.SECONDS);
        if (superUser) {
            client.addAuthInfo("digest", ("super:" + SUPER_PASSWORD).getBytes(StandardCharsets.UTF_8));
        }
        return client;
    }

    private static String spec(QuorumMember member) {
        return "server." + member.id() + "=" + member.toSpec();
    }

    private static String configOf(ZooKeeperAdmin client) throws Exception {
        client.sync("/zookeeper/config", (rc, path, ctx) -> { }, null);
        return new String(client.getConfig(false, new Stat()), StandardCharsets.UTF_8);
    }

    @Test
    void growingFromThreeToFiveAnswersWithTheNewConfigurationAndFiresItsWatch() throws Exception {
        startThree(true);
        start(4, List.of(1L, 2L, 3L, 4L), true);
        start(5, List.of(1L, 2L, 3L, 5L), true);
        ZooKeeperAdmin admin = admin(1, true);
        CompletableFuture<Watcher.Event.EventType> fired = new CompletableFuture<>();
        Stat before = new Stat();
        admin.getConfig(event -> fired.complete(event.getType()), before);

        Stat after = new Stat();
        byte[] answer = admin.reconfigure(spec(line(4)) + "," + spec(line(5)), null, null, -1, after);

        String text = new String(answer, StandardCharsets.UTF_8);
        StringBuilder expected = new StringBuilder();
        for (long id = 1; id <= 5; id++) {
            expected.append(spec(line(id))).append('\n');
        }
        expected.append("version=").append(Long.toHexString(after.getMzxid()));
        assertEquals(expected.toString(), text);
        assertEquals(before.getVersion() + 1, after.getVersion());
        assertEquals(Watcher.Event.EventType.NodeDataChanged, fired.get(10, TimeUnit.SECONDS));
        awaitLeader();
        for (long id = 1; id <= 5; id++) {
            assertEquals(text, configOf(admin(id, false)), "member " + id + "'s /zookeeper/config");
        }
        // the joiners serve writes and count: with two of the old members down, 3, 4 and 5 still commit
        ZooKeeperAdmin viaJoiner = admin(4, false);
        viaJoiner.create("/grown", new byte[] {1}, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        long leader = awaitLeader();
        List<Long> down = new ArrayList<>();
        for (long id = 1; id <= 3 && down.size() < 2; id++) {
            if (id != leader) {
                down.add(id);
            }
        }
        for (long id : down) {
            servers.remove(id).close();
        }
        awaitLeader();
        ZooKeeperAdmin survivor = admin(5, false);
        survivor.create("/with-three-of-five", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        assertTrue(survivor.exists("/grown", false) != null);
    }

    @Test
    void removingTheLeaderHandsLeadershipToTheOthers() throws Exception {
        startThree(true);
        long leader = awaitLeader();
        long other = leader == 1 ? 2 : 1;
        ZooKeeperAdmin admin = admin(other, true);
        admin.create("/before", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);

        try {
            byte[] answer = admin.reconfigure(null, Long.toString(leader), null, -1, new Stat());
            assertTrue(!new String(answer, StandardCharsets.UTF_8).contains("server." + leader + "="));
        } catch (KeeperException.ConnectionLossException electionUnderWay) {
            // every member drops its clients while the new configuration elects its leader; the
            // change is committed all the same, as /zookeeper/config shows below
        }
        long deadline = System.currentTimeMillis() + SERVING_TIMEOUT_MS;
        long fresh = -1;
        while (System.currentTimeMillis() < deadline && (fresh < 0 || fresh == leader)) {
            for (Map.Entry<Long, WardenServer> e : servers.entrySet()) {
                if (e.getValue().member().isServing() && e.getValue().member().role() == Role.LEADING) {
                    fresh = e.getKey();
                }
            }
            Thread.sleep(10);
        }
        assertNotEquals(leader, fresh);
        assertTrue(fresh > 0, "a remaining member leads");
        assertTrue(!configOf(admin).contains("server." + leader + "="), "the leader is no longer a member");
        admin.create("/after", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        assertTrue(admin.exists("/before", false) != null);
    }

    @Test
    void refusalsCarryZooKeepersErrorsAndChangeNothing() throws Exception {
        startThree(true);
        ZooKeeperAdmin admin = admin(2, true);
        String unchanged = configOf(admin);
        long version = Long.parseLong(unchanged.substring(unchanged.lastIndexOf('=') + 1), 16);
        QuorumMember stranger = new QuorumMember(6, "127.0.0.1", FreePorts.pick(), FreePorts.pick(), false, null, 0);

        assertEquals(KeeperException.Code.NOAUTH, codeOf(() -> admin(2, false).reconfigure(
                spec(stranger), null, null, -1, new Stat())));
        assertEquals(KeeperException.Code.BADVERSION, codeOf(() -> admin.reconfigure(null, "3", null, version + 1,
                new Stat())));
        assertEquals(KeeperException.Code.BADVERSION, codeOf(() -> admin(2, false).reconfigure(spec(stranger), null,
                null, version + 1, new Stat())), "the version is checked before the permission, as ZooKeeper does");
        assertEquals(KeeperException.Code.BADVERSION, codeOf(() -> admin.reconfigure("server.6=nonsense", null,
                null, version + 1, new Stat())), "the version is checked first, as ZooKeeper does");
        assertEquals(KeeperException.Code.BADARGUMENTS, codeOf(() -> admin.reconfigure("server.6=nonsense", null,
                null, -1, new Stat())), "malformed member string");
        QuorumMember clash = new QuorumMember(6, "127.0.0.1", line(1).peerPort(), FreePorts.pick(), false, null, 0);
        assertEquals(KeeperException.Code.BADARGUMENTS, codeOf(() -> admin.reconfigure(spec(clash), null, null, -1,
                new Stat())), "address in use");
        assertEquals(KeeperException.Code.BADARGUMENTS, codeOf(() -> admin.reconfigure(null, "1,2,3", null, -1,
                new Stat())), "every member removed");
        assertEquals(KeeperException.Code.BADARGUMENTS, codeOf(() -> admin.reconfigure(null, "9", null, -1,
                new Stat())), "not a member");
        assertEquals(KeeperException.Code.BADARGUMENTS, codeOf(() -> admin.reconfigure(spec(stranger), null,
                spec(line(1)), -1, new Stat())), "incremental and non-incremental at once");
        QuorumMember seven = new QuorumMember(7, "127.0.0.1", FreePorts.pick(), FreePorts.pick(), false, null, 0);
        assertEquals(KeeperException.Code.NEWCONFIGNOQUORUM, codeOf(() -> admin.reconfigure(null, null,
                spec(line(1)) + "," + spec(stranger) + "," + spec(seven), -1, new Stat())),
                "6 and 7 are not running");

        assertEquals(unchanged, configOf(admin));
        admin.create("/still-writable", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        assertEquals(KeeperException.Code.BADVERSION, codeOf(() -> admin.reconfigure(null, "3", null, version + 1,
                new Stat())), "a write does not change the configuration version");
    }

    /**
     * Two changes sent back to back: the second is prepared while the first is on its way to the
     * log and gets RECONFIGINPROGRESS; the first commits.
     */
    @Test
    void aSecondChangeWhileOneIsInProgressIsRefused() throws Exception {
        startThree(true);
        long leader = awaitLeader();
        long follower = leader == 3 ? 2 : 3;
        ZooKeeperAdmin admin = admin(leader, true);
        CompletableFuture<Integer> first = new CompletableFuture<>();
        CompletableFuture<Integer> second = new CompletableFuture<>();
        // The new configuration's quorum needs the leader's own acknowledgement: holding its fsyncs
        // back keeps the first change uncommitted while the second arrives, however fast the host.
        disks.get(leader).delayForcesBy(2_000);
        admin.reconfigure(null, Long.toString(follower), null, -1, (rc, path, ctx, data, stat) -> first.complete(rc),
                null);
        admin.reconfigure(null, Long.toString(follower), null, -1, (rc, path, ctx, data, stat) -> second.complete(rc),
                null);
        assertEquals(KeeperException.Code.OK.intValue(), first.get(10, TimeUnit.SECONDS));
        assertEquals(KeeperException.Code.RECONFIGINPROGRESS.intValue(), second.get(10, TimeUnit.SECONDS));
        disks.get(leader).delayForcesBy(0);
        assertTrue(!configOf(admin).contains("server." + follower + "="), configOf(admin));
    }

    /**
     * Members started from zoo.cfg files: a committed change rewrites each member's files as
     * ZooKeeper does (the member lines in zoo.cfg.dynamic.<version in hex>, zoo.cfg naming it
     * and without its server lines), and a member restarted from them comes back with the new
     * member list and its version.
     */
    @Test
    void aCommittedChangeIsRecordedInTheFilesAndARestartComesBackWithIt() throws Exception {
        for (long id = 1; id <= 3; id++) {
            line(id);
        }
        Map<Long, Path> zooCfgs = new HashMap<>();
        for (long id = 1; id <= 3; id++) {
            Path memberDir = dir.resolve("m" + id);
            java.nio.file.Files.createDirectories(memberDir);
            java.nio.file.Files.writeString(memberDir.resolve("myid"), id + "\n");
            StringBuilder cfg = new StringBuilder("dataDir=" + memberDir + "\nclientPortAddress=127.0.0.1\n"
                    + "clientPort=" + clientPorts.get(id) + "\ntickTime=" + TestEnsemble.TICK_MS + "\ninitLimit="
                    + EnsembleTestLimits.LIMIT_TICKS + "\nsyncLimit=" + EnsembleTestLimits.LIMIT_TICKS
                    + "\nreconfigEnabled=true\nsuperDigest="
                    + dev.warden.state.auth.Digests.idFor("super:" + SUPER_PASSWORD) + "\n");
            for (long member = 1; member <= 3; member++) {
                cfg.append(spec(line(member))).append('\n');
            }
            Path zooCfg = memberDir.resolve("zoo.cfg");
            java.nio.file.Files.writeString(zooCfg, cfg);
            zooCfgs.put(id, zooCfg);
            servers.put(id, WardenServer.start(dev.warden.server.config.ConfigLoader.load(zooCfg), Clock.SYSTEM,
                    TxnLogOptions.defaults().channels(), ZabConsensus::new));
        }
        long leader = awaitLeader();
        long removed = leader == 3 ? 2 : 3;
        long kept = 6 - leader - removed;
        ZooKeeperAdmin admin = admin(leader, true);
        Stat stat = new Stat();
        String text = new String(admin.reconfigure(null, Long.toString(removed), null, -1, stat),
                StandardCharsets.UTF_8);
        String hex = Long.toHexString(stat.getMzxid());

        Path zooCfg = zooCfgs.get(kept);
        Path dynamic = Path.of(zooCfg + ".dynamic." + hex);
        String named = "dynamicConfigFile=" + dynamic.toAbsolutePath();
        // the member writes the dynamic file, then zoo.cfg naming it, once it learns the change committed
        long deadline = System.currentTimeMillis() + SERVING_TIMEOUT_MS;
        while (!java.nio.file.Files.readString(zooCfg).contains(named) && System.currentTimeMillis() < deadline) {
            Thread.sleep(10);
        }
        String rewritten = java.nio.file.Files.readString(zooCfg);
        assertTrue(rewritten.contains(named), rewritten);
        assertEquals(text.substring(0, text.lastIndexOf("version=")), java.nio.file.Files.readString(dynamic),
                "the dynamic file holds the member lines");
        assertTrue(!rewritten.contains("server."), rewritten);

        servers.remove(kept).close();
        ServerConfig reread = dev.warden.server.config.ConfigLoader.load(zooCfg);
        assertEquals(stat.getMzxid(), reread.configVersion());
        assertEquals(List.of(Math.min(leader, kept), Math.max(leader, kept)),
                List.copyOf(reread.members().keySet()));
        servers.put(kept, WardenServer.start(reread, Clock.SYSTEM, TxnLogOptions.defaults().channels(),
                ZabConsensus::new));
        servers.remove(removed).close();
        awaitLeader();
        assertEquals(text, configOf(admin(kept, false)), "the restarted member's /zookeeper/config");
        admin(kept, false).create("/after-restart", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
    }

    /**
     * A follower's line given again with {@code :observer} makes it an observer (it rejoins as
     * one and its acknowledgements stop counting), and given back as a participant makes it vote
     * again; each change shows in /zookeeper/config and the ensemble keeps serving writes.
     */
    @Test
    void aVoterBecomesAnObserverAndBack() throws Exception {
        startThree(true);
        long leader = awaitLeader();
        long member = leader == 3 ? 2 : 3;
        ZooKeeperAdmin admin = admin(leader, true);
        QuorumMember voter = line(member);
        QuorumMember observer = new QuorumMember(member, voter.host(), voter.peerPort(), voter.electionPort(), true,
                voter.clientHost(), voter.clientPort());

        String demoted = new String(admin.reconfigure(spec(observer), null, null, -1, new Stat()),
                StandardCharsets.UTF_8);
        assertTrue(demoted.contains(spec(observer) + "\n"), demoted);
        awaitRole(member, Role.OBSERVING);
        admin(member, false).create("/while-observing", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE,
                CreateMode.PERSISTENT);

        String promoted = new String(admin.reconfigure(spec(voter), null, null, -1, new Stat()),
                StandardCharsets.UTF_8);
        assertTrue(promoted.contains(spec(voter) + "\n"), promoted);
        awaitRole(member, Role.FOLLOWING);
        assertEquals(promoted, configOf(admin(member, false)));
    }

    private void awaitRole(long id, Role role) throws InterruptedException {
        long deadline = System.currentTimeMillis() + SERVING_TIMEOUT_MS;
        while (System.currentTimeMillis() < deadline) {
            var m = servers.get(id).member();
            if (m.isServing() && m.role() == role) {
                return;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("member " + id + " is not serving as " + role + " within " + SERVING_TIMEOUT_MS
                + " ms");
    }

    /** As in ZooKeeper, skipACL=yes skips /zookeeper/config's ACL too: a session without auth may reconfigure. */
    @Test
    void withSkipAclASessionWithoutAuthReconfiguresThroughAFollower() throws Exception {
        skipAcl = true;
        startThree(true);
        long leader = awaitLeader();
        long via = leader == 1 ? 2 : 1;
        long removed = 6 - leader - via;
        String text = new String(admin(via, false).reconfigure(null, Long.toString(removed), null, -1, new Stat()),
                StandardCharsets.UTF_8);
        assertTrue(!text.contains("server." + removed + "="), text);
    }

    @Test
    void reconfigIsDisabledByDefault() throws Exception {
        startThree(false);
        ZooKeeperAdmin admin = admin(1, true);
        String unchanged = configOf(admin);
        assertEquals(KeeperException.Code.RECONFIGDISABLED, codeOf(() -> admin.reconfigure(null, "3", null, -1,
                new Stat())));
        assertEquals(unchanged, configOf(admin));
    }

    private interface Call {
        void run() throws Exception;
    }

    private static KeeperException.Code codeOf(Call call) {
        KeeperException e = assertThrows(KeeperException.class, call::run);
        return e.code();
    }
}
