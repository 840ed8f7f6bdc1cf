package dev.warden.server.quorum;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.state.common.ManualClock;
import dev.warden.state.pipeline.ReadProcessor;
import dev.warden.state.pipeline.StateMachine;
import dev.warden.state.session.SessionTracker;
import dev.warden.state.tree.DataTree;
import dev.warden.state.watch.WatchManager;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** An Error that ends the apply thread must be reported, so the member stops serving. */
class MemberApplierFailureTest {
    @Test
    void anErrorOnTheApplyThreadIsReportedToTheMember() throws Exception {
        DataTree tree = new DataTree();
        StateMachine state = new StateMachine(tree, new SessionTracker(new ManualClock(0), 100, 1));
        CountDownLatch reported = new CountDownLatch(1);
        AtomicReference<Throwable> cause = new AtomicReference<>();
        ApplyHooks hooks = new ApplyHooks() {
            @Override public void applied(long zxid) { }
            @Override public void sessionClosed(long sessionId) { }
            @Override public void belowOutstandingLimit() { }
            @Override public void snapshotDue() { }
            @Override public void stateRestored() { }

            @Override
            public void applyFailed(Throwable failure) {
                cause.set(failure);
                reported.countDown();
            }
        };
        MemberApplier applier = new MemberApplier(state, new ReadProcessor(tree, new WatchManager(1000)), hooks,
                new dev.warden.server.pipeline.OutstandingRequests(1000, () -> { }), 100_000, new SplittableRandom(1),
                "test-apply");
        applier.start();
        // runAndWait would wait for good on a thread that died: submit from a throw-away thread
        Thread submitter = new Thread(() -> applier.runAndWait(() -> {
            throw new OutOfMemoryError("Java heap space (simulated)");
        }));
        submitter.setDaemon(true);
        submitter.start();
        assertTrue(reported.await(5, TimeUnit.SECONDS), "the member was told the apply thread died");
        assertTrue(cause.get() instanceof OutOfMemoryError, "cause " + cause.get());
    }
}
