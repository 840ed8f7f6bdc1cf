package dev.warden.recipes.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.client.WardenClient;
import dev.warden.protocol.CreateMode;
import dev.warden.recipes.testing.Eventually;
import dev.warden.recipes.testing.RecipeTarget.ProxiedClient;
import dev.warden.recipes.testing.RecipeTarget;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TreeCacheTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private RecipeTarget target;

    @BeforeAll
    void start() {
        target = RecipeTarget.start();
    }

    @AfterAll
    void stop() {
        target.close();
    }

    /** The subtree as the server has it now: path to data. */
    static Map<String, String> actual(WardenClient client, String root) {
        Map<String, String> out = new TreeMap<>();
        walk(client, root, out);
        return out;
    }

    private static void walk(WardenClient client, String path, Map<String, String> out) {
        try {
            out.put(path, new String(client.getData(path).join().data(), StandardCharsets.UTF_8));
            for (String child : client.getChildren(path).join()) {
                walk(client, path + "/" + child, out);
            }
        } catch (java.util.concurrent.CompletionException gone) {
            // deleted between listing and reading
        }
    }

    static Map<String, String> view(TreeCache cache) {
        Map<String, String> out = new TreeMap<>();
        cache.snapshot().forEach((path, node) -> out.put(path, new String(node.data(), StandardCharsets.UTF_8)));
        return out;
    }

    /** Random creates, writes and deletes under root (depth up to 3). */
    static void churn(WardenClient client, String root, Random random, int operations) {
        List<String> existing = new ArrayList<>(actual(client, root).keySet());
        for (int i = 0; i < operations; i++) {
            String target = existing.get(random.nextInt(existing.size()));
            int choice = random.nextInt(3);
            try {
                if (choice == 0 && target.split("/").length < root.split("/").length + 3) {
                    String child = target + "/n" + i;
                    client.create(child, ("v" + i).getBytes(), CreateMode.PERSISTENT).join();
                    existing.add(child);
                } else if (choice == 1 || target.equals(root)) {
                    client.setData(target, ("w" + i).getBytes()).join();
                } else if (client.getChildren(target).join().isEmpty()) {
                    client.delete(target).join();
                    existing.remove(target);
                }
            } catch (java.util.concurrent.CompletionException raced) {
                existing = new ArrayList<>(actual(client, root).keySet());
            }
        }
    }

    @Test
    void followsCreatesWritesAndDeletesDownTheTree() throws Exception {
        String root = RecipeTarget.freshPath("tree");
        WardenClient writer = target.client();
        writer.create(root, "r".getBytes(), CreateMode.PERSISTENT).join();
        writer.create(root + "/a", "a".getBytes(), CreateMode.PERSISTENT).join();
        writer.create(root + "/a/b", "b".getBytes(), CreateMode.PERSISTENT).join();

        BlockingQueue<CacheEvent> events = new LinkedBlockingQueue<>();
        try (TreeCache cache = new TreeCache(target.client(), root)) {
            cache.addListener(events::add);
            cache.start(WAIT);
            List<CacheEvent> initial = new ArrayList<>();
            events.drainTo(initial);
            assertEquals(List.of(CacheEvent.Type.ADDED, CacheEvent.Type.ADDED, CacheEvent.Type.ADDED,
                    CacheEvent.Type.INITIALIZED), initial.stream().map(CacheEvent::type).toList());
            assertEquals(Map.of(root, "r", root + "/a", "a", root + "/a/b", "b"), view(cache));
            assertEquals(List.of("a"), cache.children(root));

            writer.setData(root + "/a/b", "b2".getBytes()).join();
            CacheEvent updated = events.poll(10, TimeUnit.SECONDS);
            assertEquals(CacheEvent.Type.UPDATED, updated.type());
            assertEquals("b2", new String(updated.node().data(), StandardCharsets.UTF_8));
            assertEquals("b", new String(updated.previous().data(), StandardCharsets.UTF_8));

            churn(writer, root, new Random(7), 200);
            Eventually.holds(WAIT, () -> view(cache).equals(actual(writer, root)),
                    () -> "cache " + view(cache) + " server " + actual(writer, root));
        }
    }

    @Test
    void deliversWhatChangedWhileDisconnectedWhenItReconnects() throws Exception {
        String root = RecipeTarget.freshPath("resync");
        WardenClient writer = target.client();
        writer.create(root, new byte[0], CreateMode.PERSISTENT).join();
        for (int i = 0; i < 5; i++) {
            writer.create(root + "/k" + i, ("v" + i).getBytes(), CreateMode.PERSISTENT).join();
        }
        ProxiedClient proxied = target.proxiedClient(Duration.ofSeconds(10));
        BlockingQueue<CacheEvent.Type> types = new LinkedBlockingQueue<>();
        try (TreeCache cache = new TreeCache(proxied.client(), root)) {
            cache.addListener(event -> types.add(event.type()));
            cache.start(WAIT);
            proxied.proxy().pause();
            proxied.proxy().drop();
            awaitType(types, CacheEvent.Type.SUSPENDED);
            writer.delete(root + "/k0").join();
            writer.setData(root + "/k1", "changed".getBytes()).join();
            writer.create(root + "/k9", "new".getBytes(), CreateMode.PERSISTENT).join();
            writer.create(root + "/k9/deep", "deeper".getBytes(), CreateMode.PERSISTENT).join();
            proxied.proxy().resume();
            awaitType(types, CacheEvent.Type.RESYNCED);
            assertEquals(actual(writer, root), view(cache), "after RESYNCED the view is the server's");
        }
    }

    @Test
    void aNodeCacheFollowsOneNodeThroughCreationAndDeletion() throws Exception {
        String path = RecipeTarget.freshPath("node");
        WardenClient writer = target.client();
        BlockingQueue<CacheEvent> events = new LinkedBlockingQueue<>();
        try (NodeCache cache = new NodeCache(target.client(), path)) {
            cache.addListener(events::add);
            cache.start(WAIT);
            assertTrue(cache.current().isEmpty());
            assertEquals(CacheEvent.Type.INITIALIZED, events.poll(5, TimeUnit.SECONDS).type());
            writer.create(path, "1".getBytes(), CreateMode.PERSISTENT).join();
            assertEquals(CacheEvent.Type.ADDED, events.poll(5, TimeUnit.SECONDS).type());
            writer.create(path + "/child", "c".getBytes(), CreateMode.PERSISTENT).join();
            writer.setData(path, "2".getBytes()).join();
            CacheEvent updated = events.poll(5, TimeUnit.SECONDS);
            assertEquals(CacheEvent.Type.UPDATED, updated.type(), "children are not followed at depth 0");
            assertEquals("2", new String(cache.current().orElseThrow().data(), StandardCharsets.UTF_8));
            writer.delete(path + "/child").join();
            writer.delete(path).join();
            assertEquals(CacheEvent.Type.REMOVED, events.poll(5, TimeUnit.SECONDS).type());
            assertTrue(cache.current().isEmpty());
        }
    }

    @Test
    void aLostSessionStopsTheCache() throws Exception {
        String root = RecipeTarget.freshPath("stopped");
        target.client().create(root, new byte[0], CreateMode.PERSISTENT).join();
        ProxiedClient proxied = target.proxiedClient(RecipeTarget.SHORT_SESSION_TIMEOUT);
        BlockingQueue<CacheEvent.Type> types = new LinkedBlockingQueue<>();
        TreeCache cache = new TreeCache(proxied.client(), root);
        cache.addListener(event -> types.add(event.type()));
        cache.start(WAIT);
        proxied.proxy().cut();
        awaitType(types, CacheEvent.Type.STOPPED);
        assertTrue(cache.get(root).isPresent(), "the last view stays readable");
    }

    static void awaitType(BlockingQueue<CacheEvent.Type> types, CacheEvent.Type wanted) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            CacheEvent.Type type = types.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (type == null) {
                throw new AssertionError("no " + wanted + " within " + WAIT);
            }
            if (type == wanted) {
                return;
            }
        }
    }
}
