package dev.warden.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.warden.protocol.CreateRequest;
import dev.warden.protocol.CreateTTLRequest;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.SetDataRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.Watcher.WatcherType;
import org.apache.zookeeper.ZooDefs.Ids;
import org.apache.zookeeper.ZooDefs.Perms;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every error rule of WIRE-PROTOCOL.md §4.6 that the Apache client can reach, with exact codes. */
class ErrorRulesTest {
    private static final byte[] DATA = "d".getBytes(StandardCharsets.UTF_8);
    private static final List<ACL> OPEN = Ids.OPEN_ACL_UNSAFE;

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.warden.server.it.Targets#names")
    void missingNodesGiveNoNode(String target, @TempDir Path dir) throws Exception {
        try (TargetServer server = Targets.start(target, dir); Clients clients = new Clients(server.connectString())) {
            ZooKeeper zk = clients.connect().zk;
            Expect.code(Code.NONODE, () -> zk.create("/no/child", DATA, OPEN, CreateMode.PERSISTENT));
            Expect.code(Code.NONODE, () -> zk.create("/no/seq-", DATA, OPEN, CreateMode.EPHEMERAL_SEQUENTIAL));
            Expect.code(Code.NONODE, () -> zk.delete("/no", -1));
            Expect.code(Code.NONODE, () -> zk.delete("/no/deeper", -1));
            Expect.code(Code.NONODE, () -> zk.setData("/no", DATA, -1));
            Expect.code(Code.NONODE, () -> zk.getData("/no", false, null));
            Expect.code(Code.NONODE, () -> zk.getChildren("/no", false));
            Expect.code(Code.NONODE, () -> zk.getChildren("/no", false, new Stat()));
            Expect.code(Code.NONODE, () -> zk.getACL("/no", new Stat()));
            Expect.code(Code.NONODE, () -> zk.setACL("/no", OPEN, -1));
            Expect.code(Code.NONODE, () -> zk.getAllChildrenNumber("/no"));
            assertNull(zk.exists("/no", false));
            KeeperException e = Expect.code(Code.NONODE, () -> zk.multi(List.of(Op.check("/no", -1))));
            assertEquals(Code.NONODE.intValue(), ((OpResult.ErrorResult) e.getResults().get(0)).getErr());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.warden.server.it.Targets#names")
    void conflictsGiveNodeExistsBadVersionNotEmpty(String target, @TempDir Path dir) throws Exception {
        try (TargetServer server = Targets.start(target, dir); Clients clients = new Clients(server.connectString())) {
            ZooKeeper zk = clients.connect().zk;
            zk.create("/a", DATA, OPEN, CreateMode.PERSISTENT);
            zk.create("/a/b", DATA, OPEN, CreateMode.PERSISTENT);
            Expect.code(Code.NODEEXISTS, () -> zk.create("/a", DATA, OPEN, CreateMode.PERSISTENT));
            Expect.code(Code.NODEEXISTS, () -> zk.create("/a", DATA, OPEN, CreateMode.EPHEMERAL));
            Expect.code(Code.NODEEXISTS, () -> zk.create("/zookeeper", DATA, OPEN, CreateMode.CONTAINER));
            Expect.code(Code.BADVERSION, () -> zk.setData("/a", DATA, 1));
            Expect.code(Code.BADVERSION, () -> zk.delete("/a/b", 3));
            Expect.code(Code.BADVERSION, () -> zk.setACL("/a", OPEN, 2));
            Expect.code(Code.BADVERSION, () -> zk.multi(List.of(Op.check("/a", 5))));
            Expect.code(Code.NOTEMPTY, () -> zk.delete("/a", -1));
            // Version is checked before emptiness.
            Expect.code(Code.BADVERSION, () -> zk.delete("/a", 7));
            zk.setData("/a", DATA, 0);
            Expect.code(Code.BADVERSION, () -> zk.setData("/a", DATA, 0));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.warden.server.it.Targets#names")
    void ephemeralsCannotHaveChildren(String target, @TempDir Path dir) throws Exception {
        try (TargetServer server = Targets.start(target, dir); Clients clients = new Clients(server.connectString())) {
            ZooKeeper owner = clients.connect().zk;
            ZooKeeper other = clients.connect().zk;
            owner.create("/eph", DATA, OPEN, CreateMode.EPHEMERAL);
            Expect.code(Code.NOCHILDRENFOREPHEMERALS,
                () -> owner.create("/eph/kid", DATA, OPEN, CreateMode.PERSISTENT));
            Expect.code(Code.NOCHILDRENFOREPHEMERALS,
                () -> other.create("/eph/kid", DATA, OPEN, CreateMode.EPHEMERAL));
            Expect.code(Code.NOCHILDRENFOREPHEMERALS,
                () -> owner.create("/eph/s-", DATA, OPEN, CreateMode.PERSISTENT_SEQUENTIAL));
            // Containers and TTL nodes are not session-owned and may have children.
            owner.create("/box", DATA, OPEN, CreateMode.CONTAINER);
            owner.create("/box/kid", DATA, OPEN, CreateMode.PERSISTENT);
            owner.create("/ttl", DATA, OPEN, CreateMode.PERSISTENT_WITH_TTL, null, 60_000);
            owner.create("/ttl/kid", DATA, OPEN, CreateMode.PERSISTENT);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.warden.server.it.Targets#names")
    void malformedAclsGiveInvalidAcl(String target, @TempDir Path dir) throws Exception {
        try (TargetServer server = Targets.start(target, dir); Clients clients = new Clients(server.connectString())) {
            ZooKeeper zk = clients.connect().zk;
            zk.create("/n", DATA, OPEN, CreateMode.PERSISTENT);
            List<List<ACL>> invalid = List.of(
                new ArrayList<>(),
                Ids.CREATOR_ALL_ACL, // "auth" with no authenticated identity on the connection
                acl(Perms.ALL, "digest", "no-colon"),
                acl(Perms.ALL, "world", "someone"),
                acl(Perms.ALL, "ip", "10.0.0.0/99"),
                acl(Perms.ALL, "ip", "not-an-address"),
                acl(Perms.ALL, "nosuchscheme", "x"));
            for (List<ACL> acl : invalid) {
                Expect.code(Code.INVALIDACL, () -> zk.create("/n/x", DATA, acl, CreateMode.PERSISTENT));
                Expect.code(Code.INVALIDACL, () -> zk.setACL("/n", acl, -1));
            }
            // Validation comes before the parent lookup.
            Expect.code(Code.INVALIDACL, () -> zk.create("/missing/x", DATA, Ids.CREATOR_ALL_ACL,
                CreateMode.PERSISTENT));
            assertNull(zk.exists("/n/x", false));
            assertEquals(0, zk.exists("/n", false).getAversion());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.warden.server.it.Targets#names")
    void eachOperationChecksItsPermission(String target, @TempDir Path dir) throws Exception {
        try (TargetServer server = Targets.start(target, dir); Clients clients = new Clients(server.connectString())) {
            ZooKeeper alice = clients.connect().zk;
            alice.addAuthInfo("digest", "alice:pw".getBytes(StandardCharsets.UTF_8));
            ZooKeeper stranger = clients.connect().zk;
            alice.create("/locked", DATA, Ids.CREATOR_ALL_ACL, CreateMode.PERSISTENT);
            alice.create("/locked/kid", DATA, OPEN, CreateMode.PERSISTENT);

            Expect.code(Code.NOAUTH, () -> stranger.create("/locked/new", DATA, OPEN, CreateMode.PERSISTENT));
            Expect.code(Code.NOAUTH, () -> stranger.delete("/locked/kid", -1));
            Expect.code(Code.NOAUTH, () -> stranger.setData("/locked", DATA, -1));
            Expect.code(Code.NOAUTH, () -> stranger.setACL("/locked", OPEN, -1));
            Expect.code(Code.NOAUTH, () -> stranger.getData("/locked", false, null));
            Expect.code(Code.NOAUTH, () -> stranger.getChildren("/locked", false));
            Expect.code(Code.NOAUTH, () -> stranger.getChildren("/locked", false, new Stat()));
            Expect.code(Code.NOAUTH, () -> stranger.getAllChildrenNumber("/locked"));
            Expect.code(Code.NOAUTH, () -> stranger.exists("/locked", false));
            Expect.code(Code.NOAUTH, () -> stranger.getACL("/locked", new Stat()));
            Expect.code(Code.NOAUTH, () -> stranger.multi(List.of(Op.check("/locked", -1))));
            // Ops without an ACL check still work, and the open child stays readable.
            stranger.sync("/locked", (rc, path, ctx) -> { }, null);
            assertEquals(List.of(), stranger.getEphemerals("/locked"));
            stranger.getData("/locked/kid", false, null);
            stranger.setData("/locked/kid", DATA, -1);
            // A missing node is reported before the permission check for exists.
            assertNull(stranger.exists("/locked/none", false));
            alice.delete("/locked/kid", -1);
            alice.setData("/locked", DATA, -1);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.warden.server.it.Targets#names")
    void permissionsAreCheckedBitByBitOnTheRightNode(String target, @TempDir Path dir) throws Exception {
        try (TargetServer server = Targets.start(target, dir); Clients clients = new Clients(server.connectString())) {
            ZooKeeper zk = clients.connect().zk;
            zk.create("/ro", DATA, acl(Perms.READ, "world", "anyone"), CreateMode.PERSISTENT);
            zk.getData("/ro", false, null);
            zk.getACL("/ro", new Stat());
            Expect.code(Code.NOAUTH, () -> zk.setData("/ro", DATA, -1));
            Expect.code(Code.NOAUTH, () -> zk.create("/ro/kid", DATA, OPEN, CreateMode.PERSISTENT));

            zk.create("/admin", DATA, acl(Perms.ADMIN, "world", "anyone"), CreateMode.PERSISTENT);
            Expect.code(Code.NOAUTH, () -> zk.getData("/admin", false, null));
            assertEquals(acl(Perms.ADMIN, "world", "anyone"), zk.getACL("/admin", new Stat()));
            zk.setACL("/admin", OPEN, -1);
            zk.getData("/admin", false, null);

            // delete needs DELETE on the parent, not on the node itself.
            zk.create("/nodel", DATA, acl(Perms.ALL & ~Perms.DELETE, "world", "anyone"), CreateMode.PERSISTENT);
            zk.create("/nodel/kid", DATA, OPEN, CreateMode.PERSISTENT);
            Expect.code(Code.NOAUTH, () -> zk.delete("/nodel/kid", -1));
            zk.create("/delonly", DATA, acl(Perms.DELETE | Perms.CREATE, "world", "anyone"), CreateMode.PERSISTENT);
            zk.create("/delonly/kid", DATA, acl(0, "world", "anyone"), CreateMode.PERSISTENT);
            zk.delete("/delonly/kid", -1);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.warden.server.it.Targets#names")
    void reservedNodesCannotBeDeleted(String target, @TempDir Path dir) throws Exception {
        try (TargetServer server = Targets.start(target, dir); Clients clients = new Clients(server.connectString())) {
            ZooKeeper zk = clients.connect().zk;
            for (String reserved : List.of("/", "/zookeeper", "/zookeeper/config", "/zookeeper/quota")) {
                Expect.code(Code.BADARGUMENTS, () -> zk.delete(reserved, -1));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.warden.server.it.Targets#names")
    void badTtlOrFlagsGiveBadArguments(String target, @TempDir Path dir) throws Exception {
        // The Apache client rejects these locally, so they go over a raw connection.
        try (TargetServer server = Targets.start(target, dir);
             RawClient raw = RawClient.connect(server.connectString(), 5_000);
             Clients clients = new Clients(server.connectString())) {
            List<dev.warden.protocol.Acl> open = List.of(
                new dev.warden.protocol.Acl(Perms.ALL, new dev.warden.protocol.Id("world", "anyone")));
            for (long ttl : new long[] {0, -5, 0xFF_FFFF_FFFFL + 1}) {
                assertEquals(Code.BADARGUMENTS.intValue(), raw.call(OpCode.CREATE_TTL,
                    new CreateTTLRequest("/t", DATA, open, CreateMode.PERSISTENT_WITH_TTL.toFlag(), ttl)).err());
            }
            assertEquals(Code.BADARGUMENTS.intValue(), raw.call(OpCode.CREATE_TTL,
                new CreateTTLRequest("/t", DATA, open, CreateMode.PERSISTENT.toFlag(), 1_000)).err(),
                "a non-TTL mode with a ttl");
            assertEquals(Code.BADARGUMENTS.intValue(), raw.call(OpCode.CREATE,
                new CreateRequest("/t", DATA, open, 42)).err(), "unknown create flags");
            assertEquals(Code.BADARGUMENTS.intValue(), raw.call(OpCode.CREATE,
                new CreateRequest("no-slash", DATA, open, 0)).err(), "a path without '/'");
            assertEquals(Code.BADARGUMENTS.intValue(), raw.call(OpCode.SET_DATA,
                new SetDataRequest("/bad//path", DATA, -1)).err(), "setData validates its path");
            assertEquals(Code.OK.intValue(), raw.call(OpCode.CREATE_TTL,
                new CreateTTLRequest("/t", DATA, open, CreateMode.PERSISTENT_WITH_TTL.toFlag(), 0xFF_FFFF_FFFFL)).err());
            assertEquals(0, clients.connect().zk.exists("/t", false).getEphemeralOwner());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.warden.server.it.Targets#names")
    void removingAbsentWatchesGivesNoWatcher(String target, @TempDir Path dir) throws Exception {
        try (TargetServer server = Targets.start(target, dir); Clients clients = new Clients(server.connectString())) {
            ZooKeeper zk = clients.connect().zk;
            zk.create("/w", DATA, OPEN, CreateMode.PERSISTENT);
            for (WatcherType type : WatcherType.values()) {
                Expect.code(Code.NOWATCHER, () -> zk.removeAllWatches("/w", type, false));
            }
            zk.getData("/w", event -> { }, null);
            Expect.code(Code.NOWATCHER, () -> zk.removeAllWatches("/w", WatcherType.Children, false));
            zk.removeAllWatches("/w", WatcherType.Data, false);
            Expect.code(Code.NOWATCHER, () -> zk.removeAllWatches("/w", WatcherType.Data, false));
            Expect.code(Code.NOWATCHER, () -> zk.removeWatches("/w", event -> { }, WatcherType.Any, false));
        }
    }

    private static List<ACL> acl(int perms, String scheme, String id) {
        // A mutable list: the client's validation calls contains(null), which List.of rejects.
        return new ArrayList<>(List.of(new ACL(perms, new Id(scheme, id))));
    }
}
