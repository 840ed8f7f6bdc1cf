package dev.warden.server.quorum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.warden.server.pipeline.OutstandingRequests;
import dev.warden.state.common.Clock;
import dev.warden.state.pipeline.ReadProcessor;
import dev.warden.state.pipeline.StateMachine;
import dev.warden.state.session.SessionTracker;
import dev.warden.state.tree.DataTree;
import dev.warden.state.watch.WatchManager;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/** The apply thread's inbox is bounded: a producer waits at the bound, and every event is handled in order. */
class MemberApplierInboxBoundTest {
    private static final int CAPACITY = 3;

    @Test
    void aProducerWaitsWhileTheInboxIsFullAndNothingIsLost() throws Exception {
        DataTree tree = new DataTree();
        StateMachine state = new StateMachine(tree, new SessionTracker(Clock.SYSTEM, 1_000, 1));
        ApplyHooks hooks = new ApplyHooks() {
            @Override public void applied(long zxid) { }
            @Override public void sessionClosed(long sessionId) { }
            @Override public void belowOutstandingLimit() { }
            @Override public void snapshotDue() { }
            @Override public void stateRestored() { }
            @Override public void applyFailed(Throwable cause) { }
        };
        MemberApplier applier = new MemberApplier(state, new ReadProcessor(tree, new WatchManager(1000)), hooks,
                new OutstandingRequests(1000, () -> { }), 100_000, new SplittableRandom(1), "bound-test-apply",
                CAPACITY);
        List<Integer> ran = new CopyOnWriteArrayList<>();
        // not started: nothing takes from the inbox yet
        for (int i = 1; i <= CAPACITY; i++) {
            int n = i;
            applier.run(() -> ran.add(n));
        }
        CompletableFuture<Void> past = CompletableFuture.runAsync(() -> applier.run(() -> ran.add(CAPACITY + 1)));
        try {
            past.get(300, TimeUnit.MILLISECONDS);
            throw new AssertionError("an event past the inbox's capacity was queued at once");
        } catch (TimeoutException expected) {
            // waiting for room, as it should
        }
        assertFalse(past.isDone());

        applier.start();
        past.get(30, TimeUnit.SECONDS);
        applier.runAndWait(() -> { });
        assertEquals(List.of(1, 2, 3, 4), ran);
        applier.close();
    }
}
