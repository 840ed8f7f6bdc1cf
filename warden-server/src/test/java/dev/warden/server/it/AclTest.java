package dev.warden.server.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.Watcher.Event.KeeperState;
import org.apache.zookeeper.ZooDefs.Ids;
import org.apache.zookeeper.ZooDefs.Perms;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The world, auth, digest and ip schemes, addauth, digest masking and the super user. */
class AclTest {
    private static final byte[] DATA = "secret".getBytes(StandardCharsets.UTF_8);

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.warden.server.it.Targets#names")
    void authSchemeExpandsToTheCreatorsIdentities(String target, @TempDir Path dir) throws Exception {
        try (TargetServer server = Targets.start(target, dir); Clients clients = new Clients(server.connectString())) {
            ZooKeeper creator = clients.connect().zk;
            creator.addAuthInfo("digest", auth("alice:pw"));
            creator.addAuthInfo("digest", auth("bob:pw2"));
            creator.create("/both", DATA, Ids.CREATOR_ALL_ACL, CreateMode.PERSISTENT);
            Set<String> ids = creator.getACL("/both", new Stat()).stream()
                .map(acl -> acl.getPerms() + " " + acl.getId().getScheme() + ":" + acl.getId().getId())
                .collect(Collectors.toSet());
            assertEquals(Set.of("31 digest:" + digest("alice:pw"), "31 digest:" + digest("bob:pw2")), ids,
                "one entry per authenticated identity; the ip identity does not count");

            ZooKeeper asBob = clients.connect().zk;
            asBob.addAuthInfo("digest", auth("bob:pw2"));
            assertArrayEquals(DATA, asBob.getData("/both", false, null));
            ZooKeeper wrongPassword = clients.connect().zk;
            wrongPassword.addAuthInfo("digest", auth("bob:guess"));
            Expect.code(Code.NOAUTH, () -> wrongPassword.getData("/both", false, null));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.warden.server.it.Targets#names")
    void digestAclsMatchExactlyAndAreMaskedWithoutAdmin(String target, @TempDir Path dir) throws Exception {
        try (TargetServer server = Targets.start(target, dir); Clients clients = new Clients(server.connectString())) {
            ZooKeeper owner = clients.connect().zk;
            List<ACL> acl = new ArrayList<>(List.of(
                new ACL(Perms.READ, Ids.ANYONE_ID_UNSAFE),
                new ACL(Perms.ALL, new Id("digest", digest("carol:pw")))));
            owner.create("/masked", DATA, acl, CreateMode.PERSISTENT);

            List<ACL> seenByStranger = owner.getACL("/masked", new Stat());
            assertEquals("carol:x", seenByStranger.get(1).getId().getId(), "masked without ADMIN");
            assertEquals("anyone", seenByStranger.get(0).getId().getId());
            Expect.code(Code.NOAUTH, () -> owner.setData("/masked", DATA, -1));

            ZooKeeper carol = clients.connect().zk;
            carol.addAuthInfo("digest", auth("carol:pw"));
            assertEquals(acl, carol.getACL("/masked", new Stat()), "unmasked with ADMIN");
            carol.setData("/masked", DATA, -1);
            carol.setACL("/masked", Ids.READ_ACL_UNSAFE, 0);
            Expect.code(Code.NOAUTH, () -> carol.setData("/masked", DATA, -1));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.warden.server.it.Targets#names")
    void ipAclsMatchByAddressPrefix(String target, @TempDir Path dir) throws Exception {
        try (TargetServer server = Targets.start(target, dir); Clients clients = new Clients(server.connectString())) {
            ZooKeeper zk = clients.connect().zk;
            zk.create("/exact", DATA, ip(Perms.ALL, "127.0.0.1"), CreateMode.PERSISTENT);
            zk.create("/prefix", DATA, ip(Perms.ALL, "127.0.0.0/8"), CreateMode.PERSISTENT);
            zk.create("/elsewhere", DATA, ip(Perms.ALL, "10.0.0.0/8"), CreateMode.PERSISTENT);
            zk.create("/other-host", DATA, ip(Perms.ALL, "127.0.0.2"), CreateMode.PERSISTENT);
            assertArrayEquals(DATA, zk.getData("/exact", false, null));
            assertArrayEquals(DATA, zk.getData("/prefix", false, null));
            Expect.code(Code.NOAUTH, () -> zk.getData("/elsewhere", false, null));
            Expect.code(Code.NOAUTH, () -> zk.getData("/other-host", false, null));
            // Sending ip auth only re-adds the connection's own address.
            zk.addAuthInfo("ip", "10.1.2.3".getBytes(StandardCharsets.UTF_8));
            Expect.code(Code.NOAUTH, () -> zk.getData("/elsewhere", false, null));
            zk.setData("/exact", DATA, -1);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.warden.server.it.Targets#names")
    void worldAnyoneGrantsOnlyItsBits(String target, @TempDir Path dir) throws Exception {
        try (TargetServer server = Targets.start(target, dir); Clients clients = new Clients(server.connectString())) {
            ZooKeeper zk = clients.connect().zk;
            zk.create("/w", DATA, new ArrayList<>(List.of(new ACL(Perms.READ | Perms.CREATE, Ids.ANYONE_ID_UNSAFE))),
                CreateMode.PERSISTENT);
            zk.getData("/w", false, null);
            zk.create("/w/kid", DATA, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            Expect.code(Code.NOAUTH, () -> zk.delete("/w/kid", -1));
            Expect.code(Code.NOAUTH, () -> zk.setData("/w", DATA, -1));
            Expect.code(Code.NOAUTH, () -> zk.setACL("/w", Ids.OPEN_ACL_UNSAFE, -1));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.warden.server.it.Targets#names")
    void superUserBypassesEveryAcl(String target, @TempDir Path dir) throws Exception {
        try (TargetServer server = Targets.start(target, dir); Clients clients = new Clients(server.connectString())) {
            ZooKeeper owner = clients.connect().zk;
            owner.addAuthInfo("digest", auth("dave:pw"));
            owner.create("/vault", DATA, Ids.CREATOR_ALL_ACL, CreateMode.PERSISTENT);
            owner.create("/vault/kid", DATA, Ids.CREATOR_ALL_ACL, CreateMode.PERSISTENT);
            owner.create("/none", DATA, new ArrayList<>(List.of(new ACL(0, Ids.ANYONE_ID_UNSAFE))),
                CreateMode.PERSISTENT);

            ZooKeeper superUser = clients.connect().zk;
            Expect.code(Code.NOAUTH, () -> superUser.getData("/vault", false, null));
            superUser.addAuthInfo("digest", auth(Targets.SUPER_AUTH));
            assertArrayEquals(DATA, superUser.getData("/vault", false, null));
            assertEquals(digest("dave:pw"), superUser.getACL("/vault", new Stat()).get(0).getId().getId(),
                "super sees digests unmasked");
            superUser.setData("/none", DATA, -1);
            superUser.getData("/none", false, null);
            superUser.delete("/vault/kid", -1);
            superUser.setACL("/vault", Ids.OPEN_ACL_UNSAFE, -1);
            superUser.delete("/vault", -1);
            assertNull(owner.exists("/vault", false));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.warden.server.it.Targets#names")
    void unknownAuthSchemeFailsTheConnection(String target, @TempDir Path dir) throws Exception {
        try (TargetServer server = Targets.start(target, dir); Clients clients = new Clients(server.connectString())) {
            Client client = clients.connect();
            client.zk.addAuthInfo("no-such-scheme", auth("x"));
            client.awaitState(KeeperState.AuthFailed);
            Expect.code(Code.AUTHFAILED, () -> client.zk.exists("/", false));
        }
    }

    private static byte[] auth(String userAndPassword) {
        return userAndPassword.getBytes(StandardCharsets.UTF_8);
    }

    private static String digest(String userAndPassword) {
        return Targets.digestId(userAndPassword);
    }

    private static List<ACL> ip(int perms, String address) {
        return new ArrayList<>(List.of(new ACL(perms, new Id("ip", address))));
    }
}
