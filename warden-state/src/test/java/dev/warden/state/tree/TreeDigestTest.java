package dev.warden.state.tree;

import static dev.warden.state.tree.Txns.create;
import static dev.warden.state.tree.Txns.delete;
import static dev.warden.state.tree.Txns.setAcl;
import static dev.warden.state.tree.Txns.setData;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.warden.protocol.Acl;
import dev.warden.protocol.Id;
import dev.warden.protocol.Perms;
import dev.warden.state.txn.Txn;
import dev.warden.state.txn.TxnBody;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class TreeDigestTest {
    private static final List<Acl> CREATOR = List.of(new Acl(Perms.ALL, new Id("digest", "u:h")));

    @Test
    void sameContentBuiltInDifferentOrdersHasTheSameDigest() {
        DataTree a = new DataTree();
        a.apply(create(1, "/x", "1"));
        a.apply(create(2, "/y", "2"));
        DataTree b = new DataTree();
        // Same zxids and times per node, applied in the other order (pzxid keeps the highest).
        b.apply(create(2, "/y", "2"));
        b.apply(create(1, "/x", "1"));
        assertEquals(TreeDump.of(a), TreeDump.of(b));
        assertEquals(a.digest(), b.digest());
        b.apply(setData(3, "/x", "3", 1));
        assertNotEquals(a.digest(), b.digest());
    }

    @Test
    void aChangeUndoneRestoresTheDigest() {
        DataTree tree = new DataTree();
        tree.apply(create(1, "/a", "x"));
        long before = tree.digest();
        tree.apply(create(2, "/a/b", "y"));
        assertNotEquals(before, tree.digest());
        tree.apply(delete(3, "/a/b"));
        // pzxid of /a moved on, so this is not the same content...
        assertNotEquals(before, tree.digest());
        assertEquals(recomputed(tree), tree.digest());
    }

    @Test
    void everyHashedFieldChangesTheDigest() {
        Set<Long> digests = new HashSet<>();
        List<Consumer<DataTree>> variants = List.of(
                t -> { },
                t -> t.apply(setData(9, "/n", "v", 1)),
                t -> t.apply(setData(9, "/n", "w", 0)),
                t -> t.apply(setData(10, "/n", "v", 0)),
                t -> t.apply(new Txn(1, 0, 9, 11, new TxnBody.SetData("/n", Txns.bytes("v"), 0))),
                t -> t.apply(new Txn(1, 0, 9, 9, new TxnBody.SetData("/n", null, 0))),
                t -> t.apply(setAcl(9, "/n", CREATOR, 0)),
                t -> t.apply(setAcl(9, "/n", Perms.OPEN_ACL_UNSAFE, 1)),
                t -> t.apply(create(9, "/n/c", "")),
                t -> t.apply(Txns.createWithCversion(9, "/n/c", 3)),
                t -> t.apply(create(9, "/m", "")),
                t -> t.apply(create(9, "/n2", "v")));
        for (Consumer<DataTree> variant : variants) {
            DataTree tree = base();
            variant.accept(tree);
            digests.add(tree.digest());
            assertEquals(recomputed(tree), tree.digest());
        }
        assertEquals(variants.size(), digests.size(), "each variant has its own digest");
        digests.clear();
        for (long owner : new long[] {NodeOwner.PERSISTENT, 0x42L, 0x43L, NodeOwner.CONTAINER, NodeOwner.ttl(5)}) {
            DataTree tree = new DataTree();
            tree.apply(create(1, "/n", "v", owner));
            digests.add(tree.digest());
        }
        assertEquals(5, digests.size(), "the owner is hashed");
        DataTree czxid = new DataTree();
        czxid.apply(new Txn(1, 0, 2, 1, new TxnBody.Create("/n", Txns.bytes("v"), Perms.OPEN_ACL_UNSAFE, 0, 0)));
        DataTree ctime = new DataTree();
        ctime.apply(new Txn(1, 0, 1, 2, new TxnBody.Create("/n", Txns.bytes("v"), Perms.OPEN_ACL_UNSAFE, 0, 0)));
        assertNotEquals(czxid.digest(), ctime.digest());
    }

    @Test
    void snapshotRoundTripKeepsTheDigest() throws IOException {
        DataTree tree = base();
        tree.apply(create(10, "/n/e", "eph", 0x99L));
        tree.apply(setAcl(11, "/n", CREATOR, 1));
        DataTree copy = roundTrip(tree);
        assertEquals(tree.digest(), copy.digest());
        assertEquals(TreeDump.of(tree), TreeDump.of(copy));
        assertEquals(List.of("/n/e"), copy.ephemerals(0x99L));
    }

    private static DataTree base() {
        DataTree tree = new DataTree();
        tree.apply(create(1, "/n", "v"));
        return tree;
    }

    /** The digest computed from scratch: what a snapshot load computes. */
    static long recomputed(DataTree tree) {
        long[] sum = {0};
        tree.readLock().lock();
        try {
            TreeWalk.preOrder(tree.root(), "/", TreeDigest.ROOT_PATH_HASH,
                    (path, node, pathHash) -> sum[0] += TreeDigest.of(TreeDigest.pathHash(path), node));
        } finally {
            tree.readLock().unlock();
        }
        return sum[0];
    }

    static DataTree roundTrip(DataTree tree) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        TreeSnapshot.write(tree, new DataOutputStream(bytes));
        DataTree copy = new DataTree();
        TreeSnapshot.read(copy, new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())),
                tree.lastAppliedZxid());
        return copy;
    }
}
