package dev.warden.server.quorum;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.consensus.Entry;
import dev.warden.protocol.ErrorCode;
import dev.warden.protocol.GetDataRequest;
import dev.warden.protocol.GetDataResponse;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.Record;
import dev.warden.protocol.ReplyHeader;
import dev.warden.protocol.SetDataRequest;
import dev.warden.state.auth.AuthIdentities;
import dev.warden.state.common.ManualClock;
import dev.warden.state.pipeline.Origin;
import dev.warden.state.pipeline.ReadProcessor;
import dev.warden.state.pipeline.Request;
import dev.warden.state.pipeline.StateMachine;
import dev.warden.state.session.SessionTracker;
import dev.warden.state.tree.DataTree;
import dev.warden.state.txn.Txn;
import dev.warden.state.txn.TxnBody;
import dev.warden.state.watch.WatchManager;
import dev.warden.state.watch.WatchRecipient;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A local write is queued with the apply thread without waking it
 * ({@link MemberApplier#localAwaitingEnsemble}); the event that completes it wakes the thread.
 * These check that such a write is still registered in its session's order, before anything
 * queued after it, and that a reset forgets it.
 */
class MemberApplierOrderTest {
    private static final long SESSION = 0x0100_0000_0000_0001L;
    private static final byte[] OLD = "old".getBytes(StandardCharsets.UTF_8);
    private static final byte[] NEW = "new".getBytes(StandardCharsets.UTF_8);

    private final DataTree tree = new DataTree();
    private final RecordingOrigin origin = new RecordingOrigin();
    private MemberApplier applier;
    private long nextZxid = 1;

    @BeforeEach
    void startApplier() {
        StateMachine state = new StateMachine(tree, new SessionTracker(new ManualClock(0), 100, 1));
        ApplyHooks hooks = new ApplyHooks() {
            @Override public void applied(long zxid) { }
            @Override public void sessionClosed(long sessionId) { }
            @Override public void belowOutstandingLimit() { }
            @Override public void snapshotDue() { }
            @Override public void stateRestored() { }
            @Override public void applyFailed(Throwable failure) { }
        };
        applier = new MemberApplier(state, new ReadProcessor(tree, new WatchManager(1000)), hooks,
                new dev.warden.server.pipeline.OutstandingRequests(1000, () -> { }), 100_000, new SplittableRandom(1),
                "test-apply");
        applier.start();
        commit(SESSION, 0, new TxnBody.CreateSession(30_000, new byte[16]));
        commit(SESSION, 0, new TxnBody.Create("/a", OLD, List.of(), 0, 0));
        applier.runAndWait(() -> { }); // both applied before a test starts
    }

    @AfterEach
    void stopApplier() {
        applier.close();
    }

    @Test
    void aReadQueuedAfterAQuietWriteIsAnsweredAfterItAndSeesIt() throws Exception {
        Request write = new Request(origin, SESSION, 1, OpCode.SET_DATA, new SetDataRequest("/a", NEW, -1));
        Request read = new Request(origin, SESSION, 2, OpCode.GET_DATA, new GetDataRequest("/a", false));
        origin.expect(2);
        applier.localAwaitingEnsemble(write, 0);
        applier.local(read, 0); // wakes the thread, which must file the write first
        Thread.sleep(50);
        assertEquals(List.of(), origin.xids(), "nothing is answered before the write commits");
        commit(SESSION, 1, new TxnBody.SetData("/a", NEW, 1));

        assertTrue(origin.await(), "both answered");
        assertEquals(List.of(1, 2), origin.xids());
        assertEquals(ErrorCode.OK.code(), origin.headers.get(1).err());
        assertArrayEquals(NEW, ((GetDataResponse) origin.bodies.get(1)).data(), "the read sees the write");
    }

    @Test
    void aQuietWriteIsAnsweredWhenItsCommitArrives() throws Exception {
        origin.expect(3);
        for (int xid = 1; xid <= 3; xid++) {
            applier.localAwaitingEnsemble(new Request(origin, SESSION, xid, OpCode.SET_DATA,
                    new SetDataRequest("/a", NEW, -1)), 0);
        }
        for (int xid = 1; xid <= 3; xid++) {
            commit(SESSION, xid, new TxnBody.SetData("/a", NEW, xid));
        }
        assertTrue(origin.await(), "all three answered");
        assertEquals(List.of(1, 2, 3), origin.xids());
    }

    @Test
    void aResetForgetsAQuietWrite() throws Exception {
        applier.localAwaitingEnsemble(new Request(origin, SESSION, 1, OpCode.SET_DATA,
                new SetDataRequest("/a", NEW, -1)), 0);
        applier.reset();
        applier.runAndWait(() -> { });
        assertEquals(1, origin.done.get(), "the forgotten request was released");
        assertEquals(List.of(), origin.xids(), "and not answered");
    }

    private void commit(long sessionId, int cxid, TxnBody body) {
        long zxid = nextZxid++;
        applier.committed(CommittedEntries.decoded(List.of(new Entry(zxid, new Txn(sessionId, cxid, zxid, 0, body).encode()))));
    }

    private static final class RecordingOrigin implements Origin {
        final List<ReplyHeader> headers = new CopyOnWriteArrayList<>();
        final List<Record> bodies = new CopyOnWriteArrayList<>();
        final AtomicInteger done = new AtomicInteger();
        private volatile CountDownLatch answered = new CountDownLatch(0);

        void expect(int replies) {
            answered = new CountDownLatch(replies);
        }

        boolean await() throws InterruptedException {
            return answered.await(5, TimeUnit.SECONDS);
        }

        List<Integer> xids() {
            return headers.stream().map(ReplyHeader::xid).toList();
        }

        @Override
        public AuthIdentities identities() {
            return new AuthIdentities("127.0.0.1");
        }

        @Override
        public void send(ReplyHeader header, Record body) {
            headers.add(header);
            bodies.add(body);
            answered.countDown();
        }

        @Override
        public void requestDone(Request request) {
            done.incrementAndGet();
        }

        @Override
        public void closeAfterFlush() {
        }

        @Override
        public WatchRecipient watcher() {
            return (type, path, zxid, acl) -> { };
        }

        @Override
        public void sessionCreated(long sessionId, int timeoutMs, byte[] password) {
        }
    }
}
