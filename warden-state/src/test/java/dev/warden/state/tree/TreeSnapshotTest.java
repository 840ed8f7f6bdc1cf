package dev.warden.state.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.state.pipeline.TxnGenerator;
import dev.warden.state.txn.Txn;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TreeSnapshotTest {
    /**
     * The applier runs between the writer's chunks (here: after every node), changing child
     * tables the writer is part way through. The file must still load, and replay from the
     * label must give the live tree.
     */
    @Test
    void changesBetweenChunksStillGiveAWellFormedSnapshot() throws IOException {
        long seed = new Random().nextLong();
        for (int round = 0; round < 20; round++) {
            try {
                checkInterleaved(seed + round);
            } catch (AssertionError | IOException | RuntimeException e) {
                throw new AssertionError("seed " + (seed + round) + ": " + e.getMessage(), e);
            }
        }
    }

    private static void checkInterleaved(long seed) throws IOException {
        TxnGenerator generator = new TxnGenerator(seed);
        List<Txn> applied = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            applied.add(generator.next());
        }
        DataTree live = generator.state().tree();
        long labelZxid = live.lastAppliedZxid();
        List<Txn> during = new ArrayList<>();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        TreeSnapshot.write(live, new DataOutputStream(bytes), 1, () -> {
            for (int i = 0; i < 2; i++) {
                during.add(generator.next());
            }
        });
        DataTree restored = new DataTree();
        TreeSnapshot.read(restored, new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())), labelZxid);
        during.forEach(restored::apply);
        assertTrue(during.size() >= 10, "the tree changed while it was written");
        assertEquals(TreeDump.of(live), TreeDump.of(restored));
        assertEquals(live.digest(), restored.digest());
        assertEquals(live.nodeCount(), restored.nodeCount());
        assertEquals(live.approximateDataBytes(), restored.approximateDataBytes());
        assertEquals(live.ephemeralsBySession(), restored.ephemeralsBySession());
    }

    @Test
    void aFormatOneSnapshotIsRefusedWithAClearError() {
        for (int marker : new int[] {1, -1}) {
            byte[] old = {0, 0, 0, (byte) marker};
            if (marker == -1) {
                Arrays.fill(old, (byte) -1);
            }
            IOException error = assertThrows(IOException.class, () -> TreeSnapshot.read(new DataTree(),
                    new DataInputStream(new ByteArrayInputStream(old)), 0));
            assertTrue(error.getMessage().startsWith("unsupported snapshot version"), error.getMessage());
        }
    }

    @Test
    void corruptRecordsAreIoErrors() throws IOException {
        DataTree tree = new DataTree();
        tree.apply(Txns.create(1, "/a", "x"));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        TreeSnapshot.write(tree, new DataOutputStream(bytes));
        byte[] good = bytes.toByteArray();
        byte[] badMagic = good.clone();
        badMagic[0] = 9;
        assertThrows(IOException.class, () -> read(badMagic));
        byte[] rootWithName = good.clone();
        rootWithName[7] = 1;
        assertThrows(IOException.class, () -> read(rootWithName));
        byte[] negativeChildren = good.clone();
        // The root's child count is the last int of its header (magic + 76 header bytes).
        negativeChildren[4 + NodeHeader.BYTES - 4] = -1;
        assertThrows(IOException.class, () -> read(negativeChildren));
        assertThrows(IOException.class, () -> read(Arrays.copyOf(good, good.length - 3)));
        assertEquals(TreeDump.of(tree), TreeDump.of(read(good)));
    }

    /**
     * Children are written in their table's slot order and read into a table of the size their
     * count needs, which after deletions is smaller than the writer's: the tree comes back whole.
     */
    @Test
    void aNodeThatLostMostOfItsChildrenComesBackWhole() throws IOException {
        DataTree tree = new DataTree();
        long zxid = 1;
        tree.apply(Txns.create(zxid++, "/big", ""));
        for (int i = 0; i < 6_000; i++) {
            tree.apply(Txns.create(zxid++, "/big/n" + i, "v" + i));
        }
        for (int i = 0; i < 6_000; i += 6) {
            for (int j = 1; j < 6; j++) {
                tree.apply(Txns.delete(zxid++, "/big/n" + (i + j)));
            }
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        TreeSnapshot.write(tree, new DataOutputStream(bytes));
        DataTree restored = read(bytes.toByteArray());
        assertEquals(TreeDump.of(tree), TreeDump.of(restored));
        assertEquals(tree.digest(), restored.digest());
        assertEquals(1_000, restored.node("/big").numChildren());
        assertEquals(new java.util.HashSet<>(tree.node("/big").children()),
                new java.util.HashSet<>(restored.node("/big").children()));
    }

    @Test
    void twoChildrenOfOneNameUnderOneParentAreRefused() {
        DataTree tree = new DataTree();
        DataNode root = DataNode.create(NodeNames.EMPTY, NodeNames.hash(NodeNames.EMPTY), new byte[0],
                dev.warden.protocol.Perms.OPEN_ACL_UNSAFE, 0, 0, NodeOwner.PERSISTENT);
        tree.restore(null, root, TreeDigest.ROOT_PATH_HASH, 1, "/");
        tree.restore(root, child("a"), TreeDigest.childPathHash(TreeDigest.ROOT_PATH_HASH, NodeNames.hash(
                NodeNames.encode("a", 0, 1))), 2, null);
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> tree.restore(root,
                child("a"), 0, 2, null));
        assertTrue(refused.getMessage().contains("two children named 'a'"), refused.getMessage());
        assertEquals(1, root.numChildren());
    }

    private static DataNode child(String name) {
        byte[] bytes = NodeNames.encode(name, 0, name.length());
        return DataNode.create(bytes, NodeNames.hash(bytes), new byte[0], dev.warden.protocol.Perms.OPEN_ACL_UNSAFE,
                1, 1, NodeOwner.PERSISTENT);
    }

    private static DataTree read(byte[] bytes) throws IOException {
        DataTree tree = new DataTree();
        TreeSnapshot.read(tree, new DataInputStream(new ByteArrayInputStream(bytes)), 1);
        return tree;
    }
}
