package dev.warden.state.tree;

import static dev.warden.state.tree.Txns.bytes;
import static dev.warden.state.tree.Txns.create;
import static dev.warden.state.tree.Txns.delete;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DataTreeTest {
    @Test
    void freshTreeHoldsTheSystemNodes() {
        DataTree tree = new DataTree();
        assertEquals(Set.of("/", "/zookeeper", "/zookeeper/quota", "/zookeeper/config"), tree.paths());
        assertEquals(4, tree.nodeCount());
        assertEquals(-1, tree.node("/zookeeper/config").aversion());
        assertEquals("", tree.node("/").name());
        assertEquals("quota", tree.node("/zookeeper/quota").name());
    }

    @Test
    void malformedPathsFindNothing() {
        DataTree tree = new DataTree();
        tree.apply(create(1, "/a", "x"));
        for (String path : new String[] {"", "a", "/a/", "//a", "/a//", "//", "/b", "/a/b", "a/"}) {
            assertNull(tree.node(path), path);
        }
        assertNull(tree.node(null));
        assertNotNull(tree.node("/a"));
        assertNotNull(tree.node("/"));
        long digest = tree.digest();
        tree.apply(create(2, "/", "x"));
        tree.apply(create(3, "a", "x"));
        tree.apply(create(4, "/a/", "x"));
        tree.apply(delete(5, "/"));
        tree.apply(delete(6, "a"));
        assertEquals(5, tree.nodeCount());
        assertEquals(digest, tree.digest());
    }

    @Test
    void nonAsciiNamesAreFoundAndListed() {
        DataTree tree = new DataTree();
        tree.apply(create(1, "/héllo", "1"));
        tree.apply(create(2, "/héllo/日本", "2"));
        tree.apply(create(3, "/héllo/日本/\uD83D\uDE00x", "3"));
        assertArrayEquals(bytes("3"), tree.node("/héllo/日本/\uD83D\uDE00x").data());
        assertNull(tree.node("/hello"));
        assertNull(tree.node("/héllo/日"));
        assertEquals(List.of("日本"), tree.node("/héllo").children());
        assertEquals(approximateSize(tree), tree.approximateDataBytes());
    }

    @Test
    void thousandsOfChildrenComeAndGo() {
        DataTree tree = new DataTree();
        tree.apply(create(1, "/p", ""));
        long zxid = 2;
        for (int i = 0; i < 2000; i++) {
            tree.apply(create(zxid++, "/p/c" + i, "v" + i));
        }
        assertEquals(2000, tree.node("/p").numChildren());
        assertEquals(2000, tree.descendantCount("/"  + "p"));
        for (int i = 0; i < 2000; i += 3) {
            tree.apply(delete(zxid++, "/p/c" + i));
        }
        Set<String> expected = new HashSet<>();
        for (int i = 0; i < 2000; i++) {
            if (i % 3 != 0) {
                expected.add("c" + i);
                assertArrayEquals(bytes("v" + i), tree.node("/p/c" + i).data());
            } else {
                assertNull(tree.node("/p/c" + i));
            }
        }
        assertEquals(expected, new HashSet<>(tree.node("/p").children()));
        assertEquals(4 + 1 + expected.size(), tree.nodeCount());
        assertEquals(zxid - 1, tree.node("/p").pzxid());
    }

    @Test
    void aFirstChangeReplacesAPristineNodeInItsParent() {
        DataTree tree = new DataTree();
        tree.apply(create(1, "/p", "p"));
        for (int i = 0; i < 20; i++) {
            tree.apply(create(2 + i, "/p/c" + i, "v"));
        }
        tree.apply(create(30, "/p/c5/grandchild", "g"));
        assertTrue(tree.node("/p/c5") instanceof PristineNode);
        tree.apply(Txns.setData(31, "/p/c5", "changed", 1));
        tree.apply(Txns.setAcl(32, "/p/c6", dev.warden.protocol.Perms.READ_ACL_UNSAFE, 1));
        tree.apply(Txns.setData(33, "/", "root data", 1));
        tree.apply(Txns.setData(34, "/p", "pp", 1));
        DataNode changed = tree.node("/p/c5");
        assertTrue(changed instanceof ModifiedNode);
        assertArrayEquals(bytes("changed"), changed.data());
        assertEquals(31, changed.mzxid());
        assertEquals(1, changed.version());
        assertEquals(List.of("grandchild"), changed.children());
        assertEquals(1, tree.node("/p/c6").aversion());
        assertEquals(2 + 6, tree.node("/p/c6").mzxid());
        assertArrayEquals(bytes("root data"), tree.node("/").data());
        assertEquals(20, tree.node("/p").numChildren());
        assertEquals(34, tree.node("/p").mzxid());
        assertArrayEquals(bytes("g"), tree.node("/p/c5/grandchild").data());
        assertEquals(TreeDigestTest.recomputed(tree), tree.digest());
    }

    @Test
    void leafStatDefaultsAndParentOnlyFields() {
        DataTree tree = new DataTree();
        tree.apply(create(5, "/a", "x"));
        DataNode a = tree.node("/a");
        assertEquals(5, a.pzxid());
        assertEquals(0, a.stat().cversion());
        // The preparer computes the parent's new cversion counter; the tree adopts it.
        tree.apply(Txns.createWithCversion(6, "/a/b", 1));
        tree.apply(delete(7, "/a/b"));
        assertEquals(7, a.pzxid());
        assertEquals(1, a.cversionCounter());
        assertEquals(2, a.stat().cversion(), "one create and one delete");
        assertEquals(0, a.numChildren());
    }

    @Test
    void deletingANodeWithChildrenDuringReplayForgetsTheSubtree() {
        DataTree tree = new DataTree();
        tree.apply(create(1, "/a", ""));
        tree.apply(create(2, "/a/b", "", 0x1234L));
        tree.apply(create(3, "/a/b/c", "data"));
        tree.apply(delete(4, "/a"));
        assertEquals(4, tree.nodeCount());
        assertEquals(List.of(), tree.ephemerals(0x1234L));
        assertEquals(new DataTree().digest(), digestWithoutRootStat(tree));
        assertEquals(approximateSize(tree), tree.approximateDataBytes());
    }

    @Test
    void closingASessionDeletesItsEphemerals() {
        DataTree tree = new DataTree();
        long session = 0x0100_0000_0000_0001L;
        tree.apply(create(1, "/e1", "", session));
        tree.apply(create(2, "/e2", "", session));
        assertEquals(2, tree.ephemeralCount());
        List<String> order = tree.ephemeralsInCloseOrder(session);
        tree.apply(Txns.closeSession(3, session, order));
        assertNull(tree.node("/e1"));
        assertNull(tree.node("/e2"));
        assertEquals(0, tree.ephemeralCount());
    }

    @Test
    void clearGivesAFreshTree() {
        DataTree tree = new DataTree();
        long fresh = tree.digest();
        tree.apply(create(1, "/a", "x", 0x77L));
        tree.apply(create(2, "/c", "", NodeOwner.CONTAINER));
        tree.clear();
        assertEquals(new DataTree().paths(), tree.paths());
        assertEquals(0, tree.lastAppliedZxid());
        assertEquals(fresh, tree.digest());
        assertEquals(0, tree.ephemeralCount());
        assertEquals(List.of(), tree.containerAndTtlPaths());
        assertEquals(new DataTree().approximateDataBytes(), tree.approximateDataBytes());
    }

    /** The old tree's approximate size: path length plus data, over all nodes but the root. */
    static long approximateSize(DataTree tree) {
        long bytes = 0;
        for (String path : tree.paths()) {
            DataNode node = tree.node(path);
            bytes += (path.equals("/") ? 0 : path.length()) + (node.data() == null ? 0 : node.data().length);
        }
        return bytes;
    }

    /** The digest with the root's children term (pzxid, cversion) recomputed as in a fresh tree. */
    private static long digestWithoutRootStat(DataTree tree) {
        DataNode root = tree.node("/");
        long actual = TreeDigest.children(TreeDigest.ROOT_PATH_HASH, root);
        ChildTable saved = root.children;
        List<DataNode> kids = new ArrayList<>(List.of(saved.toArray()));
        ChildTable fresh = new ChildTable(0);
        kids.forEach(fresh::add);
        root.children = fresh;
        long expected = TreeDigest.children(TreeDigest.ROOT_PATH_HASH, root);
        root.children = saved;
        return tree.digest() - actual + expected;
    }
}
