package dev.warden.server.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.warden.protocol.OpCode;
import dev.warden.protocol.Record;
import dev.warden.protocol.ReplyHeader;
import dev.warden.state.auth.AuthIdentities;
import dev.warden.state.common.Clock;
import dev.warden.state.pipeline.Origin;
import dev.warden.state.pipeline.PendingState;
import dev.warden.state.pipeline.Preparer;
import dev.warden.state.pipeline.ReadProcessor;
import dev.warden.state.pipeline.Request;
import dev.warden.state.pipeline.StateMachine;
import dev.warden.state.session.SessionTracker;
import dev.warden.state.tree.DataTree;
import dev.warden.state.watch.WatchManager;
import dev.warden.state.watch.WatchRecipient;
import dev.warden.storage.TxnLog;
import dev.warden.storage.TxnLogOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The standalone pipeline's queues are bounded: a submitter waits at the bound, and nothing is dropped. */
class PipelineQueueBoundTest {
    private static final int CAPACITY = 2;

    @TempDir
    Path dir;

    @Test
    void aSubmitterWaitsWhileThePrepQueueIsFullAndEveryRequestIsAnswered() throws Exception {
        List<Integer> answeredXids = new CopyOnWriteArrayList<>();
        Origin origin = new RecordingOrigin(answeredXids);
        StateMachine state = new StateMachine(new DataTree(), new SessionTracker(Clock.SYSTEM, 1_000, 1));
        PendingState pending = new PendingState(state.tree());
        Preparer preparer = new Preparer(pending, state.sessions(), Clock.SYSTEM, new SplittableRandom(1), false, 0);
        try (TxnLog log = TxnLog.open(dir, TxnLogOptions.defaults())) {
            Pipeline pipeline = new Pipeline(preparer, pending, log, state, new ReadProcessor(state.tree(),
                    new WatchManager(1_000)), new NoListener(), 1_000, 100_000, new SplittableRandom(1), false, CAPACITY);
            // not started: nothing takes from the prep queue yet
            for (int xid = 1; xid <= CAPACITY; xid++) {
                pipeline.submit(new Request(origin, 0, xid, OpCode.PING, null));
            }
            CompletableFuture<Void> third = CompletableFuture.runAsync(
                    () -> pipeline.submit(new Request(origin, 0, CAPACITY + 1, OpCode.PING, null)));
            try {
                third.get(300, TimeUnit.MILLISECONDS);
                throw new AssertionError("a submit past the prep queue's capacity returned at once");
            } catch (TimeoutException expected) {
                // waiting, as it should while the queue is full
            }
            assertFalse(third.isDone());

            pipeline.start("bound-test");
            third.get(30, TimeUnit.SECONDS);
            long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (answeredXids.size() < CAPACITY + 1 && System.nanoTime() < deadlineNs) {
                Thread.sleep(5);
            }
            pipeline.close();
            assertEquals(List.of(1, 2, 3), answeredXids);
            assertEquals(0, pipeline.outstanding());
        }
    }

    /** Records the xid of every request done (answered), in order. */
    private record RecordingOrigin(List<Integer> answeredXids) implements Origin {
        @Override
        public AuthIdentities identities() {
            return new AuthIdentities("127.0.0.1");
        }

        @Override
        public void send(ReplyHeader header, Record body) {
        }

        @Override
        public void requestDone(Request request) {
            answeredXids.add(request.xid);
        }

        @Override
        public void closeAfterFlush() {
        }

        @Override
        public WatchRecipient watcher() {
            return null;
        }

        @Override
        public void sessionCreated(long sessionId, int timeoutMs, byte[] password) {
        }
    }

    private static final class NoListener implements PipelineListener {
        @Override
        public void sessionClosed(long sessionId) {
        }

        @Override
        public void belowOutstandingLimit() {
        }

        @Override
        public void snapshotDue() {
        }

        @Override
        public void stateRestored() {
        }
    }
}
