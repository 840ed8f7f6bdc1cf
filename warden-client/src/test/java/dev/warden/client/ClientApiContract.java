package dev.warden.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.client.support.Events;
import dev.warden.client.support.TargetServer;
import dev.warden.protocol.Acl;
import dev.warden.protocol.CreateMode;
import dev.warden.protocol.ErrorCode;
import dev.warden.protocol.Id;
import dev.warden.protocol.Perms;
import dev.warden.protocol.Stat;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.TestInstance;

/**
 * Every API method with its expected results, written against {@link TargetServer} so the
 * same expectations run against each server implementation. Each test works under its own
 * chroot, which also exercises the chroot mapping.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ClientApiContract {
    static final Duration WAIT = Duration.ofSeconds(10);
    static final byte[] EMPTY = new byte[0];

    private TargetServer server;
    private WardenClient root;
    WardenClient client;
    BlockingClient sync;

    abstract TargetServer startServer();

    @BeforeAll
    void startAll() {
        server = startServer();
        root = WardenClient.builder().connectString(server.connectString()).connect().join();
    }

    @AfterAll
    void stopAll() {
        root.close();
        server.close();
    }

    @BeforeEach
    void connect(TestInfo info) {
        String chroot = "/" + info.getTestMethod().orElseThrow().getName();
        root.create(chroot, EMPTY, CreateMode.PERSISTENT).join();
        client = WardenClient.builder().connectString(server.connectString() + chroot)
                .sessionTimeout(Duration.ofSeconds(4)).connect().join();
        sync = client.blocking(WAIT);
    }

    @AfterEach
    void disconnect() {
        client.close();
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void createAndGetDataRoundTrip() {
        assertEquals("/a", sync.create("/a", bytes("hello"), CreateMode.PERSISTENT));
        DataAndStat read = sync.getData("/a");
        assertArrayEquals(bytes("hello"), read.data());
        assertEquals(5, read.stat().dataLength());
        assertEquals(0, read.stat().version());
        assertNotEquals(0, client.sessionId());
    }

    @Test
    void createWithStatReportsTheNewNode() {
        CreateResult created = sync.createWithStat("/n", bytes("x"), Perms.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        assertEquals("/n", created.path());
        assertEquals(created.stat(), sync.exists("/n").orElseThrow());
        assertEquals(created.stat().czxid(), created.stat().mzxid());
    }

    @Test
    void nullDataIsKeptDistinctFromEmpty() {
        sync.create("/null", null, CreateMode.PERSISTENT);
        sync.create("/empty", EMPTY, CreateMode.PERSISTENT);
        assertNull(sync.getData("/null").data());
        assertArrayEquals(EMPTY, sync.getData("/empty").data());
    }

    @Test
    void sequentialNodesGetIncreasingSuffixes() {
        sync.create("/q", EMPTY, CreateMode.PERSISTENT);
        String first = sync.create("/q/item-", EMPTY, CreateMode.PERSISTENT_SEQUENTIAL);
        String second = sync.create("/q/item-", EMPTY, CreateMode.EPHEMERAL_SEQUENTIAL);
        assertEquals("/q/item-0000000000", first);
        assertEquals("/q/item-0000000001", second);
    }

    @Test
    void ephemeralNodesBelongToTheSessionAndAreListed() {
        sync.create("/e", EMPTY, CreateMode.EPHEMERAL);
        assertEquals(client.sessionId(), sync.exists("/e").orElseThrow().ephemeralOwner());
        assertEquals(List.of("/e"), sync.getEphemerals("/"));
        WardenException e = assertThrows(WardenException.class, () -> sync.create("/e/child", EMPTY, CreateMode.PERSISTENT));
        assertEquals(ErrorCode.NO_CHILDREN_FOR_EPHEMERALS, e.code());
    }

    @Test
    void containerAndTtlNodesAreCreated() {
        CreateResult container = sync.createWithStat("/c", EMPTY, Perms.OPEN_ACL_UNSAFE, CreateMode.CONTAINER);
        assertEquals("/c", container.path());
        CreateResult ttl = sync.createTtl("/t", EMPTY, Perms.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT_WITH_TTL, Duration.ofMinutes(5));
        assertEquals("/t", ttl.path());
        assertEquals(0, ttl.stat().ephemeralOwner());
        CreateResult seqTtl = sync.createTtl("/t-", EMPTY, Perms.OPEN_ACL_UNSAFE,
                CreateMode.PERSISTENT_SEQUENTIAL_WITH_TTL, Duration.ofMinutes(5));
        assertTrue(seqTtl.path().startsWith("/t-00000"), seqTtl.path());
        assertThrows(IllegalArgumentException.class, () -> client.createTtl("/bad", EMPTY, Perms.OPEN_ACL_UNSAFE,
                CreateMode.PERSISTENT_WITH_TTL, Duration.ZERO));
    }

    @Test
    void typedExceptionsCarryCodeAndPath() {
        WardenException.NoNodeException missing = assertThrows(WardenException.NoNodeException.class, () -> sync.getData("/missing"));
        assertEquals("/missing", missing.path());
        assertEquals(ErrorCode.NO_NODE, missing.code());
        sync.create("/dup", EMPTY, CreateMode.PERSISTENT);
        assertThrows(WardenException.NodeExistsException.class, () -> sync.create("/dup", EMPTY, CreateMode.PERSISTENT));
        assertThrows(WardenException.BadVersionException.class, () -> sync.setData("/dup", EMPTY, 7));
        sync.create("/dup/kid", EMPTY, CreateMode.PERSISTENT);
        assertThrows(WardenException.NotEmptyException.class, () -> sync.delete("/dup"));
        assertThrows(IllegalArgumentException.class, () -> client.getData("no-slash"));
        assertThrows(IllegalArgumentException.class, () -> client.getData("/a//b"));
    }

    @Test
    void existsReportsPresenceAndAbsence() {
        assertTrue(sync.exists("/x").isEmpty());
        sync.create("/x", bytes("1"), CreateMode.PERSISTENT);
        Stat stat = sync.exists("/x").orElseThrow();
        assertEquals(1, stat.dataLength());
    }

    @Test
    void setDataChecksVersionsAndReturnsTheNewStat() {
        sync.create("/v", bytes("a"), CreateMode.PERSISTENT);
        Stat afterFirst = sync.setData("/v", bytes("bb"), 0);
        assertEquals(1, afterFirst.version());
        Stat afterAny = sync.setData("/v", bytes("ccc"));
        assertEquals(2, afterAny.version());
        assertEquals(3, afterAny.dataLength());
    }

    @Test
    void deleteWithAndWithoutVersion() {
        sync.create("/d1", EMPTY, CreateMode.PERSISTENT);
        sync.create("/d2", EMPTY, CreateMode.PERSISTENT);
        assertThrows(WardenException.BadVersionException.class, () -> sync.delete("/d1", 3));
        sync.delete("/d1", 0);
        sync.delete("/d2");
        assertTrue(sync.exists("/d1").isEmpty());
        assertTrue(sync.exists("/d2").isEmpty());
        assertThrows(WardenException.NoNodeException.class, () -> sync.delete("/d2"));
    }

    @Test
    void childrenAndChildCounts() {
        sync.create("/p", EMPTY, CreateMode.PERSISTENT);
        sync.create("/p/a", EMPTY, CreateMode.PERSISTENT);
        sync.create("/p/b", EMPTY, CreateMode.PERSISTENT);
        sync.create("/p/b/c", EMPTY, CreateMode.PERSISTENT);
        assertEquals(Set.of("a", "b"), Set.copyOf(sync.getChildren("/p")));
        ChildrenAndStat withStat = sync.getChildrenAndStat("/p");
        assertEquals(Set.of("a", "b"), Set.copyOf(withStat.children()));
        assertEquals(2, withStat.stat().numChildren());
        assertEquals(3, sync.getAllChildrenNumber("/p"));
        assertEquals(List.of("p"), sync.getChildren("/"));
    }

    @Test
    void aclsAreReadAndReplacedWithVersionChecks() {
        sync.create("/acl", EMPTY, CreateMode.PERSISTENT);
        AclAndStat before = sync.getACL("/acl");
        assertEquals(Perms.OPEN_ACL_UNSAFE, before.acl());
        assertThrows(WardenException.BadVersionException.class, () -> sync.setACL("/acl", Perms.READ_ACL_UNSAFE, 5));
        List<Acl> readOnly = Perms.READ_ACL_UNSAFE;
        Stat after = sync.setACL("/acl", readOnly, before.stat().aversion());
        assertEquals(1, after.aversion());
        assertEquals(readOnly, sync.getACL("/acl").acl());
        assertThrows(WardenException.NoAuthException.class, () -> sync.setData("/acl", bytes("no")));
        assertThrows(WardenException.NoAuthException.class, () -> sync.setACL("/acl", Perms.OPEN_ACL_UNSAFE, 1));
    }

    @Test
    void addAuthAndWhoAmIShowTheDigestIdentity() {
        sync.addAuth("digest", bytes("alice:secret"));
        Set<String> schemes = new TreeSet<>();
        for (var info : sync.whoAmI()) {
            schemes.add(info.authScheme() + ":" + info.user());
        }
        assertTrue(schemes.contains("digest:alice"), schemes.toString());
        sync.create("/mine", EMPTY, Perms.CREATOR_ALL_ACL, CreateMode.PERSISTENT);
        Acl acl = sync.getACL("/mine").acl().get(0);
        assertEquals("digest", acl.id().scheme());
        assertTrue(acl.id().id().startsWith("alice:"));
        assertNotNull(new Id("digest", "x"));
    }

    @Test
    void syncCompletes() {
        sync.sync("/");
    }

    @Test
    void transactionAppliesAllOrNothing() {
        sync.create("/t", bytes("0"), CreateMode.PERSISTENT);
        List<OpResult> results = sync.commit(client.transaction()
                .create("/t/a", bytes("a"), CreateMode.PERSISTENT)
                .setData("/t", bytes("1"), 0)
                .check("/t", 1)
                .create("/t/s-", EMPTY, CreateMode.PERSISTENT_SEQUENTIAL)
                .delete("/t/a", 0));
        assertEquals(5, results.size());
        assertEquals("/t/a", assertInstanceOf(OpResult.Created.class, results.get(0)).path());
        assertEquals(1, assertInstanceOf(OpResult.DataSet.class, results.get(1)).stat().version());
        assertInstanceOf(OpResult.Checked.class, results.get(2));
        assertEquals("/t/s-0000000001", assertInstanceOf(OpResult.Created.class, results.get(3)).path());
        assertInstanceOf(OpResult.Deleted.class, results.get(4));

        WardenException failure = assertThrows(WardenException.BadVersionException.class, () -> sync.commit(client.transaction()
                .create("/t/never", EMPTY, CreateMode.PERSISTENT)
                .check("/t", 0)));
        assertEquals(1, failure.failedOpIndex());
        assertEquals("/t", failure.path());
        assertTrue(sync.exists("/t/never").isEmpty());
        assertEquals(List.of(), sync.commit(client.transaction()));
    }

    @Test
    void multiReadReturnsIndependentResults() {
        sync.create("/r", bytes("data"), CreateMode.PERSISTENT);
        sync.create("/r/k", EMPTY, CreateMode.PERSISTENT);
        List<OpResult> results = sync.multiRead(List.of(ReadOp.getData("/r"), ReadOp.getChildren("/r"), ReadOp.getData("/none")));
        assertArrayEquals(bytes("data"), assertInstanceOf(OpResult.Data.class, results.get(0)).data());
        assertEquals(List.of("k"), assertInstanceOf(OpResult.Children.class, results.get(1)).children());
        assertEquals(ErrorCode.NO_NODE, assertInstanceOf(OpResult.Failed.class, results.get(2)).code());
    }

    @Test
    void oneShotWatchesFireOnceWithChrootRelativePaths() throws Exception {
        Events events = new Events();
        sync.create("/w", bytes("1"), CreateMode.PERSISTENT);
        sync.getData("/w", events);
        sync.getChildren("/w", events);
        assertTrue(sync.exists("/w2", events).isEmpty());
        sync.setData("/w", bytes("2"));
        sync.setData("/w", bytes("3"));
        sync.create("/w/kid", EMPTY, CreateMode.PERSISTENT);
        sync.create("/w2", EMPTY, CreateMode.PERSISTENT);
        assertEquals(new WatchEvent(WatchEvent.Kind.NODE_DATA_CHANGED, "/w", -1).kind(), events.nextEvent(WAIT).kind());
        WatchEvent children = events.nextEvent(WAIT);
        assertEquals(WatchEvent.Kind.NODE_CHILDREN_CHANGED, children.kind());
        assertEquals("/w", children.path());
        WatchEvent created = events.nextEvent(WAIT);
        assertEquals(WatchEvent.Kind.NODE_CREATED, created.kind());
        assertEquals("/w2", created.path());
        assertTrue(created.zxid() > 0);
        assertTrue(events.noMoreEvents(Duration.ofMillis(300)), "one-shot watches must not fire twice");
    }

    @Test
    void persistentAndRecursiveWatchesFireUntilClosed() throws Exception {
        Events exact = new Events();
        Events tree = new Events();
        sync.create("/pw", EMPTY, CreateMode.PERSISTENT);
        WatchHandle exactHandle = sync.addWatch("/pw", WatchMode.PERSISTENT, exact);
        WatchHandle treeHandle = sync.addWatch("/pw", WatchMode.PERSISTENT_RECURSIVE, tree);
        sync.setData("/pw", bytes("1"));
        sync.setData("/pw", bytes("2"));
        sync.create("/pw/a", EMPTY, CreateMode.PERSISTENT);
        sync.create("/pw/a/b", EMPTY, CreateMode.PERSISTENT);
        assertEquals(WatchEvent.Kind.NODE_DATA_CHANGED, exact.nextEvent(WAIT).kind());
        assertEquals(WatchEvent.Kind.NODE_DATA_CHANGED, exact.nextEvent(WAIT).kind());
        assertEquals(WatchEvent.Kind.NODE_CHILDREN_CHANGED, exact.nextEvent(WAIT).kind());
        assertEquals("/pw", tree.nextEvent(WAIT).path());
        assertEquals("/pw", tree.nextEvent(WAIT).path());
        assertEquals("/pw/a", tree.nextEvent(WAIT).path());
        WatchEvent deep = tree.nextEvent(WAIT);
        assertEquals("/pw/a/b", deep.path());
        assertEquals(WatchEvent.Kind.NODE_CREATED, deep.kind());
        assertTrue(tree.noMoreEvents(Duration.ofMillis(200)), "recursive watches skip child events");

        exactHandle.closeAsync().join();
        treeHandle.closeAsync().join();
        sync.setData("/pw", bytes("3"));
        sync.create("/pw/after", EMPTY, CreateMode.PERSISTENT);
        assertTrue(exact.noMoreEvents(Duration.ofMillis(300)));
        assertTrue(tree.noMoreEvents(Duration.ofMillis(10)));
    }

    @Test
    void removeWatchesDropsThemAndTellsTheWatcher() throws Exception {
        Events events = new Events();
        sync.create("/rw", EMPTY, CreateMode.PERSISTENT);
        sync.getData("/rw", events);
        sync.removeWatches("/rw", WatchKind.DATA);
        assertEquals(WatchEvent.Kind.DATA_WATCH_REMOVED, events.nextEvent(WAIT).kind());
        sync.setData("/rw", bytes("x"));
        assertTrue(events.noMoreEvents(Duration.ofMillis(300)));
        WardenException none = assertThrows(WardenException.class, () -> sync.removeWatches("/rw", WatchKind.CHILDREN));
        assertEquals(ErrorCode.NO_WATCHER, none.code());
    }

    @Test
    void createProtectedPrefixesTheNameWithAUuid() {
        sync.create("/locks", EMPTY, CreateMode.PERSISTENT);
        CreateResult created = sync.createProtected("/locks/lock-", EMPTY, Perms.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL_SEQUENTIAL);
        assertTrue(created.path().matches("/locks/_p_[0-9a-f-]{36}-lock-\\d{10}"), created.path());
        assertNotNull(created.stat());
    }

    @Test
    void completionsRunOnTheClientExecutorNotTheIoThread() throws InterruptedException {
        // A stage attached to an already-completed future runs on the caller's thread, so first
        // occupy the client's callback thread with a watch callback that waits: the completion
        // of the next request then has to queue behind it, on that thread.
        java.util.concurrent.CountDownLatch inWatcher = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        client.exists("/w", event -> {
            inWatcher.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }).join();
        root.create("/completionsRunOnTheClientExecutorNotTheIoThread/w", EMPTY, CreateMode.PERSISTENT).join();
        assertTrue(inWatcher.await(10, java.util.concurrent.TimeUnit.SECONDS));
        AtomicInteger calls = new AtomicInteger();
        java.util.concurrent.CompletableFuture<String> completion = client.exists("/").thenApply(stat -> {
            calls.incrementAndGet();
            return Thread.currentThread().getName();
        });
        release.countDown();
        String thread = completion.join();
        assertTrue(thread.startsWith("warden-client-callbacks"), thread);
        assertEquals(1, calls.get());
        assertFalse(thread.contains("io"));
    }
}
