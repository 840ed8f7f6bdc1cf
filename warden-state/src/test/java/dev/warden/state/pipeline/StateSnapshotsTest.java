package dev.warden.state.pipeline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.consensus.SnapshotData;
import dev.warden.state.common.ManualClock;
import dev.warden.state.session.SessionTracker;
import dev.warden.state.tree.DataNode;
import dev.warden.state.tree.DataTree;
import dev.warden.state.txn.Txn;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class StateSnapshotsTest {

    private static StateMachine fresh() {
        return new StateMachine(new DataTree(), new SessionTracker(new ManualClock(0), 100, 1));
    }

    @Test
    void snapshotBytesLoadIntoAnEqualStateMachine() throws IOException {
        TxnGenerator generator = new TxnGenerator(42);
        for (int i = 0; i < 400; i++) {
            generator.next();
        }
        SnapshotData snapshot = StateSnapshots.source(generator.state()).take();
        assertEquals(generator.state().tree().lastAppliedZxid(), snapshot.zxid());
        StateMachine copy = fresh();
        assertEquals(snapshot.zxid(), StateSnapshots.load(snapshot, copy));
        assertSameState(generator.state(), copy);
    }

    @Test
    void replayingTheEntriesAfterTheSnapshotCatchesUp() throws IOException {
        TxnGenerator generator = new TxnGenerator(7);
        for (int i = 0; i < 200; i++) {
            generator.next();
        }
        SnapshotData snapshot = StateSnapshots.take(generator.state());
        List<Txn> later = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            later.add(generator.next());
        }
        StateMachine follower = fresh();
        StateSnapshots.load(snapshot, follower);
        for (Txn txn : later) {
            follower.apply(Txn.decode(txn.encode()));
        }
        assertSameState(generator.state(), follower);
    }

    @Test
    void malformedBytesAreAnIOException() throws IOException {
        TxnGenerator generator = new TxnGenerator(3);
        for (int i = 0; i < 50; i++) {
            generator.next();
        }
        byte[] bytes = StateSnapshots.take(generator.state()).bytes();
        assertThrows(IOException.class,
                () -> StateSnapshots.load(new SnapshotData(1, Arrays.copyOf(bytes, bytes.length / 2)), fresh()));
        byte[] longer = Arrays.copyOf(bytes, bytes.length + 3);
        assertThrows(IOException.class, () -> StateSnapshots.load(new SnapshotData(1, longer), fresh()));
        assertThrows(IOException.class, () -> StateSnapshots.load(new SnapshotData(1, new byte[] {-1, -1, -1, -1}),
                fresh()));
    }

    @Test
    void loadingIntoAUsedStateMachineIsRefused() throws IOException {
        TxnGenerator generator = new TxnGenerator(5);
        generator.next();
        SnapshotData snapshot = StateSnapshots.take(generator.state());
        assertThrows(IllegalArgumentException.class, () -> StateSnapshots.load(snapshot, generator.state()));
    }

    static void assertSameState(StateMachine expected, StateMachine actual) {
        DataTree a = expected.tree();
        DataTree b = actual.tree();
        assertEquals(a.lastAppliedZxid(), b.lastAppliedZxid());
        assertEquals(new TreeSet<>(a.paths()), new TreeSet<>(b.paths()));
        assertTrue(a.nodeCount() > 2, "the generator built something");
        for (String path : a.paths()) {
            DataNode x = a.node(path);
            DataNode y = b.node(path);
            assertArrayEquals(x.data(), y.data(), path);
            assertEquals(x.stat(), y.stat(), path);
            assertEquals(x.acl(), y.acl(), path);
            assertEquals(x.owner(), y.owner(), path);
        }
        assertEquals(expected.sessions().sessions().stream().map(SessionTracker.Session::id).sorted().toList(),
                actual.sessions().sessions().stream().map(SessionTracker.Session::id).sorted().toList());
    }
}
