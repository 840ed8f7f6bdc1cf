package dev.warden.state.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.warden.protocol.Acl;
import dev.warden.protocol.Id;
import dev.warden.protocol.Perms;
import dev.warden.state.txn.Txn;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

class TreeDigestProperties {
    private static final String[] PATHS = {"/a", "/b", "/a/x", "/a/y", "/b/x", "/a/x/deep", "/é"};
    private static final List<Acl> CREATOR = List.of(new Acl(Perms.ALL, new Id("digest", "u:h")));

    /** One random operation: kind, a path index, a value. Invalid ones are simply no-ops for the tree. */
    record Op(int kind, int path, int value) {
    }

    @Provide
    Arbitrary<Op> ops() {
        return Combinators.combine(Arbitraries.integers().between(0, 5), Arbitraries.integers().between(0, PATHS.length - 1),
                Arbitraries.integers().between(0, 3)).as(Op::new);
    }

    /** After every change the rolling digest equals the digest computed from scratch, and a snapshot keeps it. */
    @Property(tries = 300)
    void rollingDigestMatchesARecomputation(@ForAll @Size(max = 60) List<@net.jqwik.api.From("ops") Op> ops)
            throws IOException {
        DataTree tree = new DataTree();
        long zxid = 1;
        for (Op op : ops) {
            tree.apply(txn(op, zxid++, tree));
            assertEquals(TreeDigestTest.recomputed(tree), tree.digest());
        }
        DataTree copy = TreeDigestTest.roundTrip(tree);
        assertEquals(tree.digest(), copy.digest());
        assertEquals(TreeDump.of(tree), TreeDump.of(copy));
    }

    /** Independent per-node histories, interleaved two different ways, end in equal content and digests. */
    @Property(tries = 200)
    void interleavingIndependentHistoriesGivesTheSameDigest(@ForAll long seed) {
        Random random = new Random(seed);
        List<List<Txn>> histories = new ArrayList<>();
        long zxid = 1;
        for (int node = 0; node < 1 + random.nextInt(12); node++) {
            String path = "/n" + node;
            List<Txn> history = new ArrayList<>();
            history.add(Txns.create(zxid++, path, "v" + random.nextInt(3), random.nextBoolean() ? 0 : 0x500 + node));
            for (int change = 0; change < random.nextInt(4); change++) {
                history.add(random.nextBoolean() ? Txns.setData(zxid++, path, "d" + random.nextInt(3), change + 1)
                        : Txns.setAcl(zxid++, path, random.nextBoolean() ? CREATOR : Perms.OPEN_ACL_UNSAFE, change + 1));
            }
            histories.add(history);
        }
        DataTree first = replay(histories, new Random(seed ^ 1));
        DataTree second = replay(histories, new Random(seed ^ 2));
        assertEquals(TreeDump.of(first), TreeDump.of(second));
        assertEquals(first.digest(), second.digest());
    }

    /** Applies each history in order, choosing at random which history moves next. */
    private static DataTree replay(List<List<Txn>> histories, Random random) {
        DataTree tree = new DataTree();
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < histories.size(); i++) {
            for (int j = 0; j < histories.get(i).size(); j++) {
                order.add(i);
            }
        }
        Collections.shuffle(order, random);
        int[] next = new int[histories.size()];
        for (int history : order) {
            tree.apply(histories.get(history).get(next[history]++));
        }
        return tree;
    }

    private static Txn txn(Op op, long zxid, DataTree tree) {
        String path = PATHS[op.path()];
        DataNode node = tree.node(path);
        return switch (op.kind()) {
            case 0, 1 -> Txns.create(zxid, path, "v" + op.value(), op.value() == 3 ? 0x77L : NodeOwner.PERSISTENT);
            case 2 -> Txns.delete(zxid, path);
            case 3 -> Txns.setData(zxid, path, "d" + op.value(), node == null ? 0 : node.version() + 1);
            case 4 -> Txns.setAcl(zxid, path, op.value() % 2 == 0 ? CREATOR : Perms.OPEN_ACL_UNSAFE,
                    node == null ? 0 : node.aversion() + 1);
            default -> Txns.closeSession(zxid, 0x77L, tree.ephemeralsInCloseOrder(0x77L));
        };
    }
}
