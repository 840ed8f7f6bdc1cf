package dev.warden.state.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.warden.state.pipeline.TxnGenerator;
import dev.warden.state.txn.Txn;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A snapshot may contain changes made after the zxid it is labelled with (it is written while
 * the applier keeps going). Loading it and replaying the log from its label must still give
 * exactly the live tree: every transaction has to be idempotent.
 */
class FuzzySnapshotReplayTest {
    @Test
    void replayingOverALaterSnapshotGivesTheLiveTree() throws IOException {
        long seed = new Random().nextLong();
        try {
            for (int round = 0; round < 30; round++) {
                check(seed + round);
            }
        } catch (AssertionError | RuntimeException e) {
            throw new AssertionError("seed " + seed + ": " + e.getMessage(), e);
        }
    }

    private static void check(long seed) throws IOException {
        Random random = new Random(seed);
        TxnGenerator generator = new TxnGenerator(seed);
        int total = 200 + random.nextInt(300);
        int label = random.nextInt(total);
        int contentUpTo = label + random.nextInt(total - label + 1);
        List<Txn> txns = new ArrayList<>();
        DataTree replica = new DataTree();
        byte[] snapshot = null;
        long labelZxid = 0;
        for (int i = 0; i < total; i++) {
            if (i == label) {
                labelZxid = generator.state().tree().lastAppliedZxid();
            }
            if (i == contentUpTo) {
                snapshot = write(generator.state().tree());
            }
            txns.add(generator.next());
        }
        if (snapshot == null) {
            snapshot = write(generator.state().tree());
        }
        DataTree restored = new DataTree();
        TreeSnapshot.read(restored, new DataInputStream(new ByteArrayInputStream(snapshot)), labelZxid);
        for (Txn txn : txns) {
            if (txn.zxid() > labelZxid) {
                restored.apply(txn);
            }
            replica.apply(txn);
        }
        String live = TreeDump.of(generator.state().tree());
        assertEquals(live, TreeDump.of(replica), "plain replay from empty");
        assertEquals(live, TreeDump.of(restored), "snapshot at " + contentUpTo + " labelled " + label);
        assertEquals(generator.state().tree().digest(), restored.digest(), "digest");
    }

    private static byte[] write(DataTree tree) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        TreeSnapshot.write(tree, new DataOutputStream(bytes));
        return bytes.toByteArray();
    }
}
