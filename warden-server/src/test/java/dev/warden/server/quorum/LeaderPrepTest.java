package dev.warden.server.quorum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.protocol.OpCode;
import dev.warden.state.common.ManualClock;
import dev.warden.state.pipeline.PendingState;
import dev.warden.state.pipeline.Preparer;
import dev.warden.state.pipeline.Request;
import dev.warden.state.pipeline.StateMachine;
import dev.warden.state.session.SessionTracker;
import dev.warden.state.tree.DataTree;
import dev.warden.state.txn.Txn;
import dev.warden.state.txn.TxnBody;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The leader's prep step validates nothing before the tree holds the leader's whole log, and loses nothing meanwhile. */
class LeaderPrepTest {
    private static final long EPOCH_2_FIRST = 0x2_0000_0001L;

    private final ManualClock clock = new ManualClock(1_000);
    private final StateMachine state = new StateMachine(new DataTree(), new SessionTracker(clock, 100, 1));
    private final PendingState pending = new PendingState(state.tree());
    private final Preparer preparer = new Preparer(pending, state.sessions(), clock, new SplittableRandom(1), true, 0);
    private final List<Long> proposed = new ArrayList<>();
    private final List<Runnable> driverChores = new ArrayList<>();
    private final LeaderPrep prep = new LeaderPrep(preparer, pending, state.sessions(), state.tree(),
            new LeaderPrep.Output() {
                @Override
                public void propose(long zxid, byte[] txn) {
                    proposed.add(zxid);
                }

                @Override
                public void refuse(long memberId, AppMessage.Failed failure) {
                    throw new AssertionError("nothing here should be refused: " + failure);
                }

                @Override
                public void onDriverThread(Runnable body) {
                    driverChores.add(body);
                }
            });

    @Test
    void requestsWaitUntilTheTreeHoldsTheWholeLogThenGoInOrder() {
        long openedSession = 0x77;
        state.sessions().add(openedSession, 30_000, new byte[16]);
        prep.lead(EPOCH_2_FIRST, 0x1_0000_0002L);
        prep.internal(closeSession(openedSession));
        prep.internal(Request.createSession(null, 0x99, new byte[16], 30_000, false));
        assertEquals(List.of(), proposed, "prep must not validate against a tree that lacks the log");

        apply(0x1_0000_0001L);
        prep.applied(0x1_0000_0001L);
        assertEquals(List.of(), driverChores, "not caught up yet: nothing to wake");

        apply(0x1_0000_0002L);
        prep.applied(0x1_0000_0002L);
        assertEquals(1, driverChores.size(), "the apply thread wakes prep once the tree is caught up");
        driverChores.remove(0).run();
        assertEquals(List.of(EPOCH_2_FIRST, EPOCH_2_FIRST + 1), proposed, "held-back requests, in arrival order");

        prep.internal(closeSession(0x99));
        assertEquals(EPOCH_2_FIRST + 2, proposed.get(2), "and prep goes on directly once leading");
    }

    @Test
    void followingDropsWhatWasHeldBack() {
        prep.lead(EPOCH_2_FIRST, 0x1_0000_0001L);
        prep.internal(closeSession(0x42));
        prep.follow();
        apply(0x1_0000_0001L);
        prep.applied(0x1_0000_0001L);
        driverChores.forEach(Runnable::run);
        assertEquals(List.of(), proposed);
        assertTrue(driverChores.isEmpty(), "no longer waiting, so nothing to wake");
    }

    @Test
    void aLeaderAlreadyCaughtUpPreparesAtOnce() {
        prep.lead(EPOCH_2_FIRST, 0);
        state.sessions().add(0x5, 30_000, new byte[16]);
        prep.internal(closeSession(0x5));
        assertEquals(List.of(EPOCH_2_FIRST), proposed);
    }

    private static Request closeSession(long sessionId) {
        return new Request(null, sessionId, 0, OpCode.CLOSE_SESSION, null);
    }

    /** A transaction from the previous epoch reaching the tree, as the apply thread would apply it. */
    private void apply(long zxid) {
        state.apply(new Txn(0x1000 + zxid, 0, zxid, clock.wallTimeMs(), new TxnBody.CreateSession(30_000, new byte[16])));
    }
}
