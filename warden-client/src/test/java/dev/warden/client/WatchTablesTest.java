package dev.warden.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.protocol.SetWatches2;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class WatchTablesTest {
    private static final Watcher A = event -> { };
    private static final Watcher B = event -> { };

    @Test
    void oneShotWatchesAreConsumedAndPersistentOnesStay() {
        WatchTables manager = new WatchTables();
        manager.add(WatchTables.Table.DATA, "/a", A);
        manager.add(WatchTables.Table.PERSISTENT, "/a", B);
        WatchEvent changed = new WatchEvent(WatchEvent.Kind.NODE_DATA_CHANGED, "/a", 5);
        assertEquals(2, manager.trigger(changed).size());
        assertEquals(1, manager.trigger(changed).size());
    }

    @Test
    void aWatcherRegisteredTwiceIsCalledOnce() {
        WatchTables manager = new WatchTables();
        manager.add(WatchTables.Table.DATA, "/a", A);
        manager.add(WatchTables.Table.CHILD, "/a", A);
        assertEquals(1, manager.trigger(new WatchEvent(WatchEvent.Kind.NODE_DELETED, "/a", 1)).size());
        assertTrue(manager.isEmpty());
    }

    @Test
    void recursiveWatchesSeeDescendantsButNotChildEvents() {
        WatchTables manager = new WatchTables();
        manager.add(WatchTables.Table.RECURSIVE, "/", A);
        assertEquals(1, manager.trigger(new WatchEvent(WatchEvent.Kind.NODE_CREATED, "/x/y/z", 1)).size());
        assertEquals(0, manager.trigger(new WatchEvent(WatchEvent.Kind.NODE_CHILDREN_CHANGED, "/x", 1)).size());
    }

    @Test
    void removeOneReportsTheLastWatcherOfAPath() {
        WatchTables manager = new WatchTables();
        manager.add(WatchTables.Table.PERSISTENT, "/a", A);
        manager.add(WatchTables.Table.PERSISTENT, "/a", B);
        assertEquals(false, manager.removeOne(WatchTables.Table.PERSISTENT, "/a", A));
        assertEquals(true, manager.removeOne(WatchTables.Table.PERSISTENT, "/a", B));
        assertEquals(false, manager.removeOne(WatchTables.Table.PERSISTENT, "/a", B));
    }

    @Property(tries = 50)
    void setWatchesChunksCarryEveryWatchOnceAndStayUnderTheLimit(@ForAll @IntRange(min = 0, max = 3000) int watchCount,
                                                                @ForAll @IntRange(min = 200, max = 5000) int maxChunkBytes) {
        WatchTables manager = new WatchTables();
        List<String> expected = new ArrayList<>();
        // The wire's five lists, in setWatches2 order (CONFIG watches go out as data watches).
        WatchTables.Table[] tables = {WatchTables.Table.DATA, WatchTables.Table.EXIST, WatchTables.Table.CHILD,
                WatchTables.Table.PERSISTENT, WatchTables.Table.RECURSIVE};
        for (int i = 0; i < watchCount; i++) {
            String path = "/node-" + i + "/" + "x".repeat(i % 40);
            WatchTables.Table table = tables[i % tables.length];
            manager.add(table, path, A);
            expected.add(table + "/app" + path);
        }
        List<SetWatches2> chunks = manager.setWatchesChunks(42, path -> "/app" + path, maxChunkBytes);
        List<String> seen = new ArrayList<>();
        for (SetWatches2 chunk : chunks) {
            assertEquals(42, chunk.relativeZxid());
            List<List<String>> lists = List.of(chunk.dataWatches(), chunk.existWatches(), chunk.childWatches(),
                    chunk.persistentWatches(), chunk.persistentRecursiveWatches());
            int pathBytes = 0;
            for (int t = 0; t < lists.size(); t++) {
                for (String path : lists.get(t)) {
                    seen.add(tables[t] + path);
                    pathBytes += path.length() + 4;
                }
            }
            assertTrue(pathBytes <= maxChunkBytes, "chunk of " + pathBytes + " bytes");
            assertTrue(chunk.toBytes().length <= maxChunkBytes + 8 + 5 * 4, "encoded chunk too large");
        }
        seen.sort(null);
        expected.sort(null);
        assertEquals(expected, seen);
        assertEquals(watchCount == 0, chunks.isEmpty());
    }

    @Test
    void chunksUseTheServerPaths() {
        WatchTables manager = new WatchTables();
        manager.add(WatchTables.Table.EXIST, "/a", A);
        UnaryOperator<String> toServer = path -> "/root" + path;
        assertEquals(List.of("/root/a"), manager.setWatchesChunks(1, toServer, 1000).get(0).existWatches());
    }

    @org.junit.jupiter.api.Test
    void configWatchesAreReRegisteredAsDataWatchesOutsideTheChroot() {
        WatchTables manager = new WatchTables();
        manager.add(WatchTables.Table.CONFIG, WatchTables.CONFIG_NODE, A);
        manager.add(WatchTables.Table.DATA, "/x", B);
        List<SetWatches2> chunks = manager.setWatchesChunks(1, path -> "/app" + path, 4096);
        assertEquals(1, chunks.size());
        assertEquals(List.of("/app/x", "/zookeeper/config"), chunks.get(0).dataWatches());
        assertEquals(1, manager.triggerConfig(new WatchEvent(WatchEvent.Kind.NODE_DATA_CHANGED, "/zookeeper/config", 5)).size());
        assertEquals(0, manager.triggerConfig(new WatchEvent(WatchEvent.Kind.NODE_DATA_CHANGED, "/zookeeper/config", 6)).size(),
                "config watches are one-shot");
    }
}
