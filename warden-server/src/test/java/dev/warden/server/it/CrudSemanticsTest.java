package dev.warden.server.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.ZooDefs.Ids;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ClientInfo;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The successful behaviour of every client operation, checked through the Apache client. */
class CrudSemanticsTest {
    private static final byte[] DATA = "payload".getBytes(StandardCharsets.UTF_8);

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.warden.server.it.Targets#names")
    void createsInAllSevenModes(String target, @TempDir Path dir) throws Exception {
        try (TargetServer server = Targets.start(target, dir); Clients clients = new Clients(server.connectString())) {
            ZooKeeper zk = clients.connect().zk;
            zk.create("/m", null, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            Stat stat = new Stat();

            assertEquals("/m/p", zk.create("/m/p", DATA, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT, stat));
            assertEquals(0, stat.getEphemeralOwner());
            assertEquals("/m/e", zk.create("/m/e", DATA, Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL, stat));
            assertEquals(zk.getSessionId(), stat.getEphemeralOwner());
            assertEquals("/m/ps0000000002",
                zk.create("/m/ps", DATA, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT_SEQUENTIAL, stat));
            assertEquals("/m/es0000000003",
                zk.create("/m/es", DATA, Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL_SEQUENTIAL, stat));
            assertEquals(zk.getSessionId(), stat.getEphemeralOwner());
            assertEquals("/m/c", zk.create("/m/c", DATA, Ids.OPEN_ACL_UNSAFE, CreateMode.CONTAINER, stat));
            assertEquals(0, stat.getEphemeralOwner(), "containers report owner 0");
            assertEquals("/m/t", zk.create("/m/t", DATA, Ids.OPEN_ACL_UNSAFE,
                CreateMode.PERSISTENT_WITH_TTL, stat, 60_000));
            assertEquals(0, stat.getEphemeralOwner(), "TTL nodes report owner 0");
            assertEquals("/m/ts0000000006", zk.create("/m/ts", DATA, Ids.OPEN_ACL_UNSAFE,
                CreateMode.PERSISTENT_SEQUENTIAL_WITH_TTL, stat, 60_000));
            assertEquals(0, stat.getEphemeralOwner());

            assertEquals(Set.of("p", "e", "ps0000000002", "es0000000003", "c", "t", "ts0000000006"),
                new HashSet<>(zk.getChildren("/m", false)));
            assertEquals(zk.getSessionId(), zk.exists("/m/e", false).getEphemeralOwner());
            assertEquals(0, zk.exists("/m/c", false).getEphemeralOwner());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.warden.server.it.Targets#names")
    void newNodeStatFollowsTheRules(String target, @TempDir Path dir) throws Exception {
        try (TargetServer server = Targets.start(target, dir); Clients clients = new Clients(server.connectString())) {
            ZooKeeper zk = clients.connect().zk;
            Stat stat = new Stat();
            zk.create("/s", DATA, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT, stat);
            assertEquals(stat.getCzxid(), stat.getMzxid());
            assertEquals(stat.getCzxid(), stat.getPzxid());
            assertEquals(stat.getCtime(), stat.getMtime());
            assertEquals(0, stat.getVersion());
            assertEquals(0, stat.getCversion());
            assertEquals(0, stat.getAversion());
            assertEquals(DATA.length, stat.getDataLength());
            assertEquals(0, stat.getNumChildren());
            assertTrue(stat.getCzxid() > 0);
            assertEquals(stat, zk.exists("/s", false));

            zk.create("/nulldata", null, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT, stat);
            assertEquals(0, stat.getDataLength(), "null data has length 0");
            Stat read = new Stat();
            assertNull(zk.getData("/nulldata", false, read), "null data reads back as null");
            assertEquals(stat, read);

            zk.create("/empty", new byte[0], Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            assertArrayEquals(new byte[0], zk.getData("/empty", false, null));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.warden.server.it.Targets#names")
    void childChangesMoveCversionAndPzxid(String target, @TempDir Path dir) throws Exception {
        try (TargetServer server = Targets.start(target, dir); Clients clients = new Clients(server.connectString())) {
            ZooKeeper zk = clients.connect().zk;
            Stat parent = new Stat();
            zk.create("/p", DATA, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT, parent);
            long parentMzxid = parent.getMzxid();
            Stat child = new Stat();
            zk.create("/p/a", null, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT, child);
            zk.create("/p/b", null, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT, child);
            parent = zk.exists("/p", false);
            assertEquals(2, parent.getCversion());
            assertEquals(2, parent.getNumChildren());
            assertEquals(child.getCzxid(), parent.getPzxid(), "pzxid is the last child change");
            assertEquals(parentMzxid, parent.getMzxid(), "child changes leave mzxid alone");
            assertEquals(0, parent.getVersion());

            zk.delete("/p/a", -1);
            Stat afterDelete = new Stat();
            List<String> children = zk.getChildren("/p", false, afterDelete);
            assertEquals(List.of("b"), children);
            assertEquals(3, afterDelete.getCversion(), "reported cversion also rises on child delete");
            assertEquals(1, afterDelete.getNumChildren());
            assertTrue(afterDelete.getPzxid() > child.getCzxid());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.warden.server.it.Targets#names")
    void sequentialSuffixUsesTheCreationCounter(String target, @TempDir Path dir) throws Exception {
        try (TargetServer server = Targets.start(target, dir); Clients clients = new Clients(server.connectString())) {
            ZooKeeper zk = clients.connect().zk;
            zk.create("/q", null, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            assertEquals("/q/x-0000000000", zk.create("/q/x-", null, Ids.OPEN_ACL_UNSAFE,
                CreateMode.PERSISTENT_SEQUENTIAL));
            zk.create("/q/plain", null, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            zk.delete("/q/x-0000000000", -1);
            zk.delete("/q/plain", -1);
            // Deletes never lower the counter; the plain create raised it.
            assertEquals("/q/x-0000000002", zk.create("/q/x-", null, Ids.OPEN_ACL_UNSAFE,
                CreateMode.PERSISTENT_SEQUENTIAL));
            assertEquals("/q/0000000003", zk.create("/q/", null, Ids.OPEN_ACL_UNSAFE,
                CreateMode.EPHEMERAL_SEQUENTIAL));
            assertEquals(List.of("0000000003", "x-0000000002"), zk.getChildren("/q", false).stream().sorted().toList());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.warden.server.it.Targets#names")
    void setDataDeleteAndExistsFollowVersions(String target, @TempDir Path dir) throws Exception {
        try (TargetServer server = Targets.start(target, dir); Clients clients = new Clients(server.connectString())) {
            ZooKeeper zk = clients.connect().zk;
            Stat created = new Stat();
            zk.create("/d", DATA, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT, created);
            Stat first = zk.setData("/d", "v1".getBytes(StandardCharsets.UTF_8), 0);
            assertEquals(1, first.getVersion());
            assertTrue(first.getMzxid() > created.getMzxid());
            assertEquals(created.getCzxid(), first.getCzxid());
            assertTrue(first.getMtime() >= first.getCtime());
            assertEquals(2, first.getDataLength());
            Stat second = zk.setData("/d", null, -1);
            assertEquals(2, second.getVersion());
            assertEquals(0, second.getDataLength());
            assertNull(zk.getData("/d", false, null));

            zk.delete("/d", 2);
            assertNull(zk.exists("/d", false));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.warden.server.it.Targets#names")
    void aclReadAndWriteRoundTrip(String target, @TempDir Path dir) throws Exception {
        try (TargetServer server = Targets.start(target, dir); Clients clients = new Clients(server.connectString())) {
            ZooKeeper zk = clients.connect().zk;
            zk.create("/acl", DATA, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            Stat stat = new Stat();
            assertEquals(Ids.OPEN_ACL_UNSAFE, zk.getACL("/acl", stat));
            assertEquals(0, stat.getAversion());
            Stat updated = zk.setACL("/acl", Ids.READ_ACL_UNSAFE, 0);
            assertEquals(1, updated.getAversion());
            assertEquals(0, updated.getVersion());
            assertEquals(Ids.READ_ACL_UNSAFE, zk.getACL("/acl", new Stat()));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.warden.server.it.Targets#names")
    void syncEchoesThePath(String target, @TempDir Path dir) throws Exception {
        try (TargetServer server = Targets.start(target, dir); Clients clients = new Clients(server.connectString())) {
            ZooKeeper zk = clients.connect().zk;
            CompletableFuture<String> done = new CompletableFuture<>();
            zk.sync("/anything", (rc, path, ctx) -> {
                if (rc == 0) {
                    done.complete(path);
                } else {
                    done.completeExceptionally(new AssertionError("sync rc " + rc));
                }
            }, null);
            assertEquals("/anything", done.get(10, TimeUnit.SECONDS));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.warden.server.it.Targets#names")
    void multiAppliesEverySubOp(String target, @TempDir Path dir) throws Exception {
        try (TargetServer server = Targets.start(target, dir); Clients clients = new Clients(server.connectString())) {
            ZooKeeper zk = clients.connect().zk;
            zk.create("/old", DATA, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            List<OpResult> results = zk.multi(List.of(
                Op.create("/new", DATA, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT),
                Op.create("/new/seq-", null, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT_SEQUENTIAL),
                Op.check("/old", 0),
                Op.setData("/old", "x".getBytes(StandardCharsets.UTF_8), 0),
                Op.delete("/old", 1)));
            assertEquals("/new", assertInstanceOf(OpResult.CreateResult.class, results.get(0)).getPath());
            assertEquals("/new/seq-0000000000",
                assertInstanceOf(OpResult.CreateResult.class, results.get(1)).getPath());
            assertInstanceOf(OpResult.CheckResult.class, results.get(2));
            Stat setStat = assertInstanceOf(OpResult.SetDataResult.class, results.get(3)).getStat();
            assertEquals(1, setStat.getVersion());
            assertInstanceOf(OpResult.DeleteResult.class, results.get(4));
            assertNull(zk.exists("/old", false));
            Stat created = zk.exists("/new", false);
            assertEquals(setStat.getMzxid(), created.getCzxid(), "all sub-ops share one zxid");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.warden.server.it.Targets#names")
    void failedMultiChangesNothingAndReportsEverySubOp(String target, @TempDir Path dir) throws Exception {
        try (TargetServer server = Targets.start(target, dir); Clients clients = new Clients(server.connectString())) {
            ZooKeeper zk = clients.connect().zk;
            zk.create("/old", DATA, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            Stat before = zk.exists("/old", false);
            KeeperException e = Expect.code(KeeperException.Code.BADVERSION, () -> zk.multi(List.of(
                Op.create("/m1", DATA, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT),
                Op.setData("/old", "x".getBytes(StandardCharsets.UTF_8), -1),
                Op.check("/old", 5),
                Op.delete("/old", -1),
                Op.create("/m2", DATA, Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL))));
            List<Integer> codes = e.getResults().stream()
                .map(r -> assertInstanceOf(OpResult.ErrorResult.class, r).getErr()).toList();
            assertEquals(List.of(0, 0, -103, -2, -2), codes, "OK before, the error, RUNTIMEINCONSISTENCY after");
            assertNull(zk.exists("/m1", false));
            assertNull(zk.exists("/m2", false));
            assertEquals(before, zk.exists("/old", false), "nothing was applied");
            assertEquals(1, zk.getChildren("/", false).stream().filter("old"::equals).count());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.warden.server.it.Targets#names")
    void multiReadReportsEachSubOpIndependently(String target, @TempDir Path dir) throws Exception {
        try (TargetServer server = Targets.start(target, dir); Clients clients = new Clients(server.connectString())) {
            ZooKeeper zk = clients.connect().zk;
            zk.create("/r", DATA, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            zk.create("/r/kid", null, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            List<OpResult> results = zk.multi(List.of(
                Op.getData("/r"), Op.getData("/missing"), Op.getChildren("/r")));
            OpResult.GetDataResult data = assertInstanceOf(OpResult.GetDataResult.class, results.get(0));
            assertArrayEquals(DATA, data.getData());
            assertEquals(1, data.getStat().getNumChildren());
            assertEquals(-101, assertInstanceOf(OpResult.ErrorResult.class, results.get(1)).getErr());
            assertEquals(List.of("kid"),
                assertInstanceOf(OpResult.GetChildrenResult.class, results.get(2)).getChildren());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.warden.server.it.Targets#names")
    void ephemeralsAndDescendantCounts(String target, @TempDir Path dir) throws Exception {
        try (TargetServer server = Targets.start(target, dir); Clients clients = new Clients(server.connectString())) {
            ZooKeeper zk = clients.connect().zk;
            ZooKeeper other = clients.connect().zk;
            zk.create("/n", null, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            zk.create("/n/a", null, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            zk.create("/n/a/e1", null, Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL);
            zk.create("/n/e2", null, Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL);
            zk.create("/x", null, Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL);
            other.create("/n/theirs", null, Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL);

            assertEquals(Set.of("/n/a/e1", "/n/e2", "/x"), new HashSet<>(zk.getEphemerals()));
            assertEquals(Set.of("/n/a/e1", "/n/e2", "/x"), new HashSet<>(zk.getEphemerals("/")));
            assertEquals(Set.of("/n/a/e1", "/n/e2"), new HashSet<>(zk.getEphemerals("/n")));
            assertEquals(List.of("/n/theirs"), other.getEphemerals());

            assertEquals(4, zk.getAllChildrenNumber("/n"), "all descendants, not only children");
            assertEquals(0, zk.getAllChildrenNumber("/x"));
            // "/" counts /zookeeper, /zookeeper/config and /zookeeper/quota too.
            assertEquals(6 + 3, zk.getAllChildrenNumber("/"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.warden.server.it.Targets#names")
    void whoAmIListsIpAndDigestIdentities(String target, @TempDir Path dir) throws Exception {
        try (TargetServer server = Targets.start(target, dir); Clients clients = new Clients(server.connectString())) {
            ZooKeeper zk = clients.connect().zk;
            List<ClientInfo> before = zk.whoAmI();
            assertEquals(1, before.size());
            assertEquals("ip", before.get(0).getAuthScheme());
            assertEquals("127.0.0.1", before.get(0).getUser());

            zk.addAuthInfo("digest", "alice:secret".getBytes(StandardCharsets.UTF_8));
            Set<String> identities = new HashSet<>();
            for (ClientInfo info : zk.whoAmI()) {
                identities.add(info.getAuthScheme() + ":" + info.getUser());
            }
            assertEquals(Set.of("ip:127.0.0.1", "digest:alice"), identities);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.warden.server.it.Targets#names")
    void reservedNodesArePresent(String target, @TempDir Path dir) throws Exception {
        try (TargetServer server = Targets.start(target, dir); Clients clients = new Clients(server.connectString())) {
            ZooKeeper zk = clients.connect().zk;
            assertTrue(zk.getChildren("/", false).contains("zookeeper"));
            assertEquals(Set.of("config", "quota"), new HashSet<>(zk.getChildren("/zookeeper", false)));
            assertNotNull(zk.exists("/zookeeper/quota", false));
            Stat configStat = new Stat();
            byte[] config = zk.getData("/zookeeper/config", false, configStat);
            assertEquals(config == null ? 0 : config.length, configStat.getDataLength());
            assertEquals(Ids.READ_ACL_UNSAFE, zk.getACL("/zookeeper/config", new Stat()));
            Stat root = zk.exists("/", false);
            assertEquals(0, root.getCzxid());
            assertEquals(Ids.OPEN_ACL_UNSAFE, zk.getACL("/", new Stat()));
        }
    }
}
