package dev.warden.server.quorum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.consensus.Role;
import dev.warden.server.EnsembleTestLimits;
import dev.warden.server.FreePorts;
import dev.warden.server.WardenServer;
import dev.warden.server.config.ConfigLoader;
import dev.warden.server.config.QuorumMember;
import dev.warden.state.common.Clock;
import dev.warden.storage.TxnLogOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.admin.ZooKeeperAdmin;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A member started from a zoo.cfg with {@code standaloneEnabled=false} and its own server line
 * alone is a one-member ensemble that grows by {@code reconfig -add} (1 → 2 → 3 → 5) and shrinks
 * back (5 → 3 → 1), as ZooKeeper 3.5+ allows, while a client keeps writing through member 1:
 * every acknowledged write is on every member of each configuration, and their trees agree.
 */
class GrowFromOneMemberTest {
    private static final long SERVING_TIMEOUT_MS = 30_000;
    private static final String SUPER_PASSWORD = "grow-secret";

    @TempDir
    Path dir;

    private final Map<Long, QuorumMember> lines = new TreeMap<>();
    private final Map<Long, WardenServer> servers = new HashMap<>();
    private final List<ZooKeeper> clients = new ArrayList<>();

    @AfterEach
    void tearDown() throws Exception {
        for (ZooKeeper client : clients) {
            client.close();
        }
        servers.values().forEach(WardenServer::close);
    }

    private QuorumMember line(long id) {
        return lines.computeIfAbsent(id, key -> new QuorumMember(key, "127.0.0.1", FreePorts.pick(), FreePorts.pick(),
                false, "127.0.0.1", FreePorts.pick()));
    }

    private static String spec(QuorumMember member) {
        return "server." + member.id() + "=" + member.toSpec();
    }

    /** Starts {@code id} from a zoo.cfg listing {@code memberIds} (a joiner: the current members and itself). */
    private void start(long id, List<Long> memberIds) throws Exception {
        start(id, memberIds, "");
    }

    private void start(long id, List<Long> memberIds, String extraLines) throws Exception {
        Path memberDir = dir.resolve("m" + id);
        Files.createDirectories(memberDir);
        Files.writeString(memberDir.resolve("myid"), id + "\n");
        StringBuilder cfg = new StringBuilder("dataDir=" + memberDir + "\ntickTime=" + TestEnsemble.TICK_MS
                + "\ninitLimit=" + EnsembleTestLimits.LIMIT_TICKS + "\nsyncLimit=" + EnsembleTestLimits.LIMIT_TICKS
                + "\nmaxSessionTimeout=30000\nstandaloneEnabled=false\nreconfigEnabled=true\nsuperDigest="
                + dev.warden.state.auth.Digests.idFor("super:" + SUPER_PASSWORD) + "\n");
        cfg.append(extraLines);
        for (long member : memberIds) {
            cfg.append(spec(line(member))).append('\n');
        }
        Path zooCfg = memberDir.resolve("zoo.cfg");
        Files.writeString(zooCfg, cfg);
        servers.put(id, WardenServer.start(ConfigLoader.load(zooCfg), Clock.SYSTEM,
                TxnLogOptions.defaults().channels(), ZabConsensus::new));
    }

    private String connectString(long id) {
        return "127.0.0.1:" + line(id).clientPort();
    }

    private <T extends ZooKeeper> T connected(T client, CompletableFuture<Void> connected) throws Exception {
        clients.add(client);
        connected.get(10, TimeUnit.SECONDS);
        return client;
    }

    private ZooKeeperAdmin admin(long id) throws Exception {
        CompletableFuture<Void> connected = new CompletableFuture<>();
        // a long session: a reconfig that waits for its joiners waits at most a third of it
        ZooKeeperAdmin admin = connected(new ZooKeeperAdmin(connectString(id), 30_000, event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.complete(null);
            }
        }), connected);
        admin.addAuthInfo("digest", ("super:" + SUPER_PASSWORD).getBytes(StandardCharsets.UTF_8));
        return admin;
    }

    private ZooKeeper client(long id) throws Exception {
        CompletableFuture<Void> connected = new CompletableFuture<>();
        return connected(new ZooKeeper(connectString(id), 10_000, event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.complete(null);
            }
        }), connected);
    }

    /** Waits until each of {@code ids} serves, one of them leading. */
    private void awaitServing(Set<Long> ids) throws InterruptedException {
        long deadline = System.currentTimeMillis() + SERVING_TIMEOUT_MS;
        while (System.currentTimeMillis() < deadline) {
            boolean allServing = true;
            int leaders = 0;
            for (long id : ids) {
                Member member = servers.get(id).member();
                allServing &= member.isServing();
                leaders += member.isServing() && member.role() == Role.LEADING ? 1 : 0;
            }
            if (allServing && leaders == 1) {
                return;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("members " + ids + " do not all serve under one leader within "
                + SERVING_TIMEOUT_MS + " ms");
    }

    private static Set<Long> voterIds(String config) {
        Set<Long> ids = new TreeSet<>();
        for (String line : config.split("\n")) {
            if (line.startsWith("server.")) {
                ids.add(Long.parseLong(line.substring("server.".length(), line.indexOf('='))));
            }
        }
        return ids;
    }

    private String reconfigure(ZooKeeperAdmin admin, String joining, String leaving) throws Exception {
        return new String(admin.reconfigure(joining, leaving, null, -1, new Stat()), StandardCharsets.UTF_8);
    }

    /** A client creating /load/w-N nodes one after another, remembering the acknowledged ones. */
    private static final class Load implements AutoCloseable {
        private final Set<String> acknowledged = new ConcurrentSkipListSet<>();
        private final AtomicBoolean stop = new AtomicBoolean();
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private final Thread thread;

        Load(ZooKeeper writer, String prefix) {
            thread = new Thread(() -> {
                for (int i = 0; !stop.get(); i++) {
                    String path = "/load/" + prefix + "-" + i;
                    try {
                        writer.create(path, new byte[] {(byte) i}, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                        acknowledged.add(path);
                    } catch (KeeperException.ConnectionLossException lost) {
                        // outcome unknown: neither acknowledged nor refused
                    } catch (Exception e) {
                        failure.set(e);
                        return;
                    }
                }
            }, "grow-load-" + prefix);
            thread.start();
        }

        /** Waits until {@code more} further writes are acknowledged. */
        void awaitProgress(int more) throws InterruptedException {
            int target = acknowledged.size() + more;
            long deadline = System.currentTimeMillis() + SERVING_TIMEOUT_MS;
            while (acknowledged.size() < target && failure.get() == null && System.currentTimeMillis() < deadline) {
                Thread.sleep(10);
            }
            assertNull(failure.get(), () -> "a write failed: " + failure.get());
            assertTrue(acknowledged.size() >= target, "writes go on");
        }

        Set<String> stopAndGetAcknowledged() throws InterruptedException {
            close();
            assertNull(failure.get(), () -> "a write failed: " + failure.get());
            return acknowledged;
        }

        @Override
        public void close() throws InterruptedException {
            stop.set(true);
            thread.join(SERVING_TIMEOUT_MS);
        }
    }

    @Test
    void aOneMemberEnsembleGrowsToFiveAndShrinksBackToOneUnderWriteLoad() throws Exception {
        start(1, List.of(1L));
        awaitServing(Set.of(1L));
        assertEquals(Role.LEADING, servers.get(1L).member().role(), "a one-member ensemble leads itself");

        ZooKeeper writer = client(1);
        writer.create("/load", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        ZooKeeperAdmin admin = admin(1);
        Set<String> acknowledged = new TreeSet<>();
        try (Load load = new Load(writer, "grow")) {
            load.awaitProgress(20);
            start(2, List.of(1L, 2L));
            assertEquals(Set.of(1L, 2L), voterIds(reconfigure(admin, spec(line(2)), null)));
            awaitServing(Set.of(1L, 2L));
            load.awaitProgress(20);

            start(3, List.of(1L, 2L, 3L));
            assertEquals(Set.of(1L, 2L, 3L), voterIds(reconfigure(admin, spec(line(3)), null)));
            awaitServing(Set.of(1L, 2L, 3L));

            start(4, List.of(1L, 2L, 3L, 4L));
            start(5, List.of(1L, 2L, 3L, 5L));
            assertEquals(Set.of(1L, 2L, 3L, 4L, 5L),
                    voterIds(reconfigure(admin, spec(line(4)) + "," + spec(line(5)), null)));
            awaitServing(Set.of(1L, 2L, 3L, 4L, 5L));
            load.awaitProgress(20);

            assertEquals(Set.of(1L, 2L, 3L), voterIds(reconfigure(admin, null, "4,5")));
            awaitServing(Set.of(1L, 2L, 3L));
            load.awaitProgress(20);
            acknowledged.addAll(load.stopAndGetAcknowledged());
        }
        assertSameTrees(List.of(1L, 2L, 3L), acknowledged);

        try (Load load = new Load(writer, "shrink")) {
            load.awaitProgress(20);
            assertEquals(Set.of(1L), voterIds(reconfigure(admin, null, "2,3")));
            awaitServing(Set.of(1L));
            load.awaitProgress(20);
            acknowledged.addAll(load.stopAndGetAcknowledged());
        }
        assertSameTrees(List.of(1L), acknowledged);
        String last = new String(client(1).getConfig(false, null), StandardCharsets.UTF_8);
        assertEquals(Set.of(1L), voterIds(last));
    }

    /**
     * The AdminServer's voting_view and the JMX replica beans show the configuration committed
     * now, not the one the member started with.
     */
    @Test
    void votingViewAndReplicaBeansFollowTheConfiguration() throws Exception {
        start(1, List.of(1L), "admin.enableServer=true\nadmin.serverPort=0\n");
        awaitServing(Set.of(1L));
        awaitView(Set.of(1L));
        start(2, List.of(1L, 2L));
        ZooKeeperAdmin admin = admin(1);
        reconfigure(admin, spec(line(2)), null);
        awaitView(Set.of(1L, 2L));
        assertEquals(2, quorumSize());
        reconfigure(admin, null, "2");
        awaitView(Set.of(1L));
        assertEquals(1, quorumSize());
    }

    private static final String QUORUM_BEAN = "org.apache.ZooKeeperService:name0=ReplicatedServer_id1";

    private static int quorumSize() throws Exception {
        return (Integer) java.lang.management.ManagementFactory.getPlatformMBeanServer()
                .getAttribute(new javax.management.ObjectName(QUORUM_BEAN), "QuorumSize");
    }

    /** Waits until member 1's voting_view and replica beans both name exactly {@code ids}. */
    private void awaitView(Set<Long> ids) throws Exception {
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        java.net.URI uri = java.net.URI.create("http://127.0.0.1:" + servers.get(1L).adminServerPort()
                + "/commands/voting_view");
        Set<Long> beans = new TreeSet<>();
        Set<Long> viewed = new TreeSet<>();
        long deadline = System.currentTimeMillis() + SERVING_TIMEOUT_MS;
        while (System.currentTimeMillis() < deadline) {
            String body = http.send(java.net.http.HttpRequest.newBuilder(uri).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString()).body();
            viewed.clear();
            java.util.regex.Matcher voter = java.util.regex.Pattern.compile("\"(\\d+)\"\\s*:\\s*\"127").matcher(body);
            while (voter.find()) {
                viewed.add(Long.parseLong(voter.group(1)));
            }
            beans.clear();
            for (javax.management.ObjectName name : java.lang.management.ManagementFactory.getPlatformMBeanServer()
                    .queryNames(new javax.management.ObjectName(QUORUM_BEAN + ",name1=*"), null)) {
                beans.add(Long.parseLong(name.getKeyProperty("name1").substring("replica.".length())));
            }
            if (viewed.equals(ids) && beans.equals(ids)) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("voting_view shows " + viewed + " and the replica beans " + beans + ", not " + ids);
    }

    /**
     * Each of {@code ids} answers /load with the same children, every acknowledged write among
     * them, and has applied up to the same zxid.
     */
    private void assertSameTrees(List<Long> ids, Set<String> acknowledged) throws Exception {
        ZooKeeper first = client(ids.get(0));
        // a write through the leader's member: once each member reads it, each has everything before it
        first.create("/load/mark-", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT_SEQUENTIAL);
        Set<String> expected = null;
        for (long id : ids) {
            ZooKeeper reader = client(id);
            CompletableFuture<Void> synced = new CompletableFuture<>();
            reader.sync("/load", (rc, path, ctx) -> synced.complete(null), null);
            synced.get(10, TimeUnit.SECONDS);
            Set<String> children = children(reader);
            for (String path : acknowledged) {
                assertTrue(children.contains(path), "acknowledged write " + path + " is on member " + id);
            }
            if (expected == null) {
                expected = children;
            } else {
                assertEquals(expected, children, "member " + id + "'s /load");
            }
        }
        long deadline = System.currentTimeMillis() + SERVING_TIMEOUT_MS;
        Set<Long> applied = new TreeSet<>();
        do {
            applied.clear();
            for (long id : ids) {
                applied.add(servers.get(id).member().lastAppliedZxid());
            }
        } while (applied.size() > 1 && System.currentTimeMillis() < deadline && sleep());
        assertEquals(1, applied.size(), "members " + ids + " applied up to the same zxid: " + applied);
    }

    private static boolean sleep() throws InterruptedException {
        Thread.sleep(10);
        return true;
    }

    private static Set<String> children(ZooKeeper client) throws Exception {
        Set<String> paths = new TreeSet<>();
        for (String child : client.getChildren("/load", false)) {
            paths.add("/load/" + child);
        }
        return paths;
    }
}
