package dev.warden.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.testsupport.FaultProxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Watcher.Event.EventType;
import org.apache.zookeeper.Watcher.WatcherType;
import org.apache.zookeeper.ZooDefs.Ids;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** One-shot, persistent and recursive watches, their ordering and ACL filtering. */
class WatchSemanticsTest {
    private static final byte[] DATA = "d".getBytes(StandardCharsets.UTF_8);

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.warden.server.it.Targets#names")
    void oneShotWatchesFireOnceWithTypeAndPath(String target, @TempDir Path dir) throws Exception {
        try (TargetServer server = Targets.start(target, dir); Clients clients = new Clients(server.connectString())) {
            ZooKeeper watcher = clients.connect().zk;
            ZooKeeper writer = clients.connect().zk;
            writer.create("/a", DATA, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);

            EventRecorder data = new EventRecorder();
            watcher.getData("/a", data, null);
            writer.setData("/a", DATA, -1);
            writer.setData("/a", DATA, -1);
            data.expect(EventType.NodeDataChanged, "/a");
            data.expectNothing();

            EventRecorder exist = new EventRecorder();
            assertNull(watcher.exists("/b", exist));
            writer.create("/b", DATA, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            writer.delete("/b", -1);
            exist.expect(EventType.NodeCreated, "/b");
            exist.expectNothing();

            EventRecorder children = new EventRecorder();
            watcher.getChildren("/a", children);
            writer.create("/a/1", DATA, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            writer.create("/a/2", DATA, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            children.expect(EventType.NodeChildrenChanged, "/a");
            children.expectNothing();

            EventRecorder onExisting = new EventRecorder();
            watcher.exists("/a/1", onExisting);
            writer.setData("/a/1", DATA, -1);
            onExisting.expect(EventType.NodeDataChanged, "/a/1");

            EventRecorder deleted = new EventRecorder();
            EventRecorder deletedChildren = new EventRecorder();
            watcher.getData("/a/2", deleted, null);
            watcher.getChildren("/a/2", deletedChildren);
            writer.delete("/a/2", -1);
            deleted.expect(EventType.NodeDeleted, "/a/2");
            deletedChildren.expect(EventType.NodeDeleted, "/a/2");
            deleted.expectNothing();
            deletedChildren.expectNothing();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.warden.server.it.Targets#names")
    void persistentAndRecursiveWatchesCoexist(String target, @TempDir Path dir) throws Exception {
        try (TargetServer server = Targets.start(target, dir); Clients clients = new Clients(server.connectString())) {
            ZooKeeper watcher = clients.connect().zk;
            ZooKeeper writer = clients.connect().zk;
            EventRecorder persistent = new EventRecorder();
            EventRecorder recursive = new EventRecorder();
            watcher.addWatch("/p", persistent, AddWatchMode.PERSISTENT);
            watcher.addWatch("/p", recursive, AddWatchMode.PERSISTENT_RECURSIVE);

            writer.create("/p", DATA, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            persistent.expect(EventType.NodeCreated, "/p");
            recursive.expect(EventType.NodeCreated, "/p");
            writer.setData("/p", DATA, -1);
            persistent.expect(EventType.NodeDataChanged, "/p");
            recursive.expect(EventType.NodeDataChanged, "/p");
            writer.create("/p/c", DATA, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            persistent.expect(EventType.NodeChildrenChanged, "/p");
            recursive.expect(EventType.NodeCreated, "/p/c");
            writer.create("/p/c/deep", DATA, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            recursive.expect(EventType.NodeCreated, "/p/c/deep");
            writer.setData("/p/c/deep", DATA, -1);
            recursive.expect(EventType.NodeDataChanged, "/p/c/deep");
            writer.delete("/p/c/deep", -1);
            recursive.expect(EventType.NodeDeleted, "/p/c/deep");
            writer.delete("/p/c", -1);
            persistent.expect(EventType.NodeChildrenChanged, "/p");
            recursive.expect(EventType.NodeDeleted, "/p/c");
            writer.delete("/p", -1);
            persistent.expect(EventType.NodeDeleted, "/p");
            recursive.expect(EventType.NodeDeleted, "/p");
            // Persistent watches survive the node's deletion.
            writer.create("/p", DATA, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            persistent.expect(EventType.NodeCreated, "/p");
            recursive.expect(EventType.NodeCreated, "/p");
            persistent.expectNothing();
            recursive.expectNothing();

            watcher.removeWatches("/p", persistent, WatcherType.Persistent, false);
            assertEquals(EventType.PersistentWatchRemoved, Await.next("removal", persistent.events).getType());
            writer.setData("/p", DATA, -1);
            recursive.expect(EventType.NodeDataChanged, "/p");
            persistent.expectNothing();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.warden.server.it.Targets#names")
    void aConnectionGetsOneEventPerTrigger(String target, @TempDir Path dir) throws Exception {
        try (TargetServer server = Targets.start(target, dir); Clients clients = new Clients(server.connectString())) {
            ZooKeeper watcher = clients.connect().zk;
            ZooKeeper writer = clients.connect().zk;
            writer.create("/one", DATA, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            // The same watcher object registered four ways still hears about each change once.
            EventRecorder shared = new EventRecorder();
            watcher.addWatch("/one", shared, AddWatchMode.PERSISTENT);
            watcher.addWatch("/one", shared, AddWatchMode.PERSISTENT_RECURSIVE);
            watcher.getData("/one", shared, null);
            watcher.exists("/one", shared);
            writer.setData("/one", DATA, -1);
            shared.expect(EventType.NodeDataChanged, "/one");
            shared.expectNothing();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.warden.server.it.Targets#names")
    void recursiveWatchNeverReportsChildrenChanged(String target, @TempDir Path dir) throws Exception {
        try (TargetServer server = Targets.start(target, dir); Clients clients = new Clients(server.connectString())) {
            ZooKeeper watcher = clients.connect().zk;
            ZooKeeper writer = clients.connect().zk;
            EventRecorder recursive = new EventRecorder();
            writer.create("/r", DATA, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            watcher.addWatch("/r", recursive, AddWatchMode.PERSISTENT_RECURSIVE);
            // A standard child watch on the same connection must not leak into the recursive one.
            EventRecorder child = new EventRecorder();
            watcher.getChildren("/r", child);
            for (int i = 0; i < 5; i++) {
                writer.create("/r/n" + i, DATA, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                writer.delete("/r/n" + i, -1);
            }
            child.expect(EventType.NodeChildrenChanged, "/r");
            for (int i = 0; i < 5; i++) {
                recursive.expect(EventType.NodeCreated, "/r/n" + i);
                recursive.expect(EventType.NodeDeleted, "/r/n" + i);
            }
            recursive.expectNothing();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.warden.server.it.Targets#names")
    void watchEventArrivesBeforeTheNewData(String target, @TempDir Path dir) throws Exception {
        try (TargetServer server = Targets.start(target, dir); Clients clients = new Clients(server.connectString())) {
            ZooKeeper reader = clients.connect().zk;
            ZooKeeper writer = clients.connect().zk;
            writer.create("/order", "0".getBytes(StandardCharsets.UTF_8), Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            // Watchers and callbacks of one client run on its single event thread, so this log
            // records the order in which the client learned things.
            List<String> log = Collections.synchronizedList(new ArrayList<>());
            for (int round = 1; round <= 20; round++) {
                String expected = Integer.toString(round);
                reader.getData("/order", event -> log.add("event " + event.getType()), null);
                writer.setData("/order", expected.getBytes(StandardCharsets.UTF_8), -1);
                String seen;
                do {
                    CompletableFuture<String> read = new CompletableFuture<>();
                    reader.getData("/order", false, (rc, path, ctx, bytes, stat) -> {
                        String value = new String(bytes, StandardCharsets.UTF_8);
                        log.add("read " + value);
                        read.complete(value);
                    }, null);
                    seen = read.get(10, TimeUnit.SECONDS);
                } while (!seen.equals(expected));
                int eventAt = log.indexOf("event NodeDataChanged");
                int readAt = log.indexOf("read " + expected);
                assertTrue(eventAt >= 0 && eventAt < readAt, () -> "event after new data: " + log);
                log.clear();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.warden.server.it.Targets#names")
    void eventsAreFilteredByReadPermission(String target, @TempDir Path dir) throws Exception {
        try (TargetServer server = Targets.start(target, dir); Clients clients = new Clients(server.connectString())) {
            ZooKeeper alice = clients.connect().zk;
            alice.addAuthInfo("digest", "alice:pw".getBytes(StandardCharsets.UTF_8));
            ZooKeeper stranger = clients.connect().zk;
            alice.create("/secret", DATA, Ids.CREATOR_ALL_ACL, CreateMode.PERSISTENT);
            alice.create("/open", DATA, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            EventRecorder strangerEvents = new EventRecorder();
            EventRecorder aliceEvents = new EventRecorder();
            stranger.addWatch("/", strangerEvents, AddWatchMode.PERSISTENT_RECURSIVE);
            alice.addWatch("/", aliceEvents, AddWatchMode.PERSISTENT_RECURSIVE);

            alice.setData("/secret", DATA, -1);
            alice.create("/secret/kid", DATA, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            alice.setData("/open", DATA, -1); // a marker: events are ordered, so this comes last
            aliceEvents.expect(EventType.NodeDataChanged, "/secret");
            aliceEvents.expect(EventType.NodeCreated, "/secret/kid");
            aliceEvents.expect(EventType.NodeDataChanged, "/open");
            // The stranger may see /secret/kid (its own ACL is open) but never /secret itself.
            List<String> strangerSaw = new ArrayList<>();
            while (true) {
                var event = Await.next("marker event", strangerEvents.events);
                strangerSaw.add(event.getType() + " " + event.getPath());
                if ("/open".equals(event.getPath())) {
                    break;
                }
            }
            assertTrue(strangerSaw.stream().noneMatch(e -> e.endsWith(" /secret")), strangerSaw::toString);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.warden.server.it.Targets#names")
    void missedChangesArriveAfterReconnect(String target, @TempDir Path dir) throws Exception {
        try (TargetServer server = Targets.start(target, dir);
             FaultProxy proxy = FaultProxy.start(server.connectString());
             Clients clients = new Clients(server.connectString())) {
            ZooKeeper writer = clients.connect().zk;
            Client watched = clients.connectTo(proxy.address(), 10_000);
            writer.create("/d1", DATA, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            writer.create("/d2", DATA, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            writer.create("/c", DATA, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            writer.create("/same", DATA, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            EventRecorder events = new EventRecorder();
            ZooKeeper zk = watched.zk;
            // Another client's writes are visible after a sync (an ensemble may connect them to different members).
            java.util.concurrent.CompletableFuture<Integer> synced = new java.util.concurrent.CompletableFuture<>();
            zk.sync("/", (rc, path, ctx) -> synced.complete(rc), null);
            assertEquals(0, synced.get(10, java.util.concurrent.TimeUnit.SECONDS));
            zk.getData("/d1", events, null);
            zk.getData("/d2", events, null);
            assertNull(zk.exists("/missing", events));
            zk.getChildren("/c", events);
            zk.getData("/same", events, null);

            proxy.pause();
            writer.setData("/d1", DATA, -1);
            writer.delete("/d2", -1);
            writer.create("/missing", DATA, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            writer.create("/c/kid", DATA, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            server.restart();
            proxy.drop(); // what the frozen connection held is lost, not delivered late
            proxy.resume();
            watched.awaitState(org.apache.zookeeper.Watcher.Event.KeeperState.SyncConnected);

            List<String> got = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                var event = Await.next("replayed event", events.events);
                got.add(event.getType() + " " + event.getPath());
            }
            got.sort(null);
            assertEquals(List.of("NodeChildrenChanged /c", "NodeCreated /missing", "NodeDataChanged /d1",
                "NodeDeleted /d2"), got);
            events.expectNothing();
            // The untouched watch was re-registered and still works.
            writer.setData("/same", DATA, -1);
            events.expect(EventType.NodeDataChanged, "/same");
            assertEquals(1, zk.exists("/d1", false).getVersion());
            assertEquals(1, zk.exists("/same", false).getVersion());
        }
    }
}
