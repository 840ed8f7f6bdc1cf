package dev.warden.server.quorum;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.warden.protocol.CreateRequest;
import dev.warden.protocol.ErrorCode;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.Perms;
import dev.warden.protocol.ReconfigRequest;
import dev.warden.protocol.Record;
import dev.warden.state.auth.AuthIdentities;
import dev.warden.state.common.ManualClock;
import dev.warden.state.pipeline.PendingState;
import dev.warden.state.pipeline.Preparer;
import dev.warden.state.pipeline.StateMachine;
import dev.warden.state.session.SessionTracker;
import dev.warden.state.tree.DataTree;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A reconfig held at the gate (waiting for the members it adds) holds the later requests of its
 * session behind it, and only those: other sessions' writes are prepared at once. When the wait
 * is over the reconfig is prepared first, then what its session sent after it.
 */
class LeaderPrepGateTest {
    private static final long EPOCH_2_FIRST = 0x2_0000_0001L;
    private static final long ADMIN = 0xA;
    private static final long OTHER = 0xB;

    private final ManualClock clock = new ManualClock(1_000);
    private final StateMachine state = new StateMachine(new DataTree(), new SessionTracker(clock, 100, 1));
    private final PendingState pending = new PendingState(state.tree());
    private final Preparer preparer = new Preparer(pending, state.sessions(), clock, new SplittableRandom(1), true, 0);
    /** What prep did, in order: "propose <session>" or "refuse <session> <error>". */
    private final List<String> events = new ArrayList<>();
    private final Gate gate = new Gate();
    private final LeaderPrep prep = new LeaderPrep(preparer, pending, state.sessions(), state.tree(),
            new LeaderPrep.Output() {
                @Override
                public void propose(long zxid, byte[] txn) {
                    events.add("propose " + dev.warden.state.txn.Txn.decode(txn).sessionId());
                }

                @Override
                public void refuse(long memberId, AppMessage.Failed failure) {
                    events.add("refuse " + failure.sessionId() + " " + ErrorCode.of(failure.errorCode()));
                }

                @Override
                public void onDriverThread(Runnable body) {
                    body.run();
                }
            }, gate);

    /** A gate that holds the first reconfig until told, and remembers what it was given. */
    private static final class Gate implements LeaderPrep.ReconfigGate {
        boolean over;
        long maxWaitMs = -1;
        int held;
        int prepared;

        @Override
        public boolean mustWait(ReconfigRequest request, AuthIdentities who, long maxWaitMs) {
            this.maxWaitMs = maxWaitMs;
            return held++ == 0;
        }

        @Override
        public boolean waitOver(long nowMs) {
            return over;
        }

        @Override
        public void prepared() {
            prepared++;
        }
    }

    @Test
    void aHeldReconfigHoldsItsSessionOnlyAndGoesFirstWhenReleased() {
        state.sessions().add(ADMIN, 30_000, new byte[16]);
        state.sessions().add(OTHER, 30_000, new byte[16]);
        prep.lead(EPOCH_2_FIRST, 0);

        prep.forwarded(forward(ADMIN, 1, OpCode.RECONFIG, new ReconfigRequest("server.2=h:1:2;3", null, null, -1)));
        prep.forwarded(forward(ADMIN, 2, OpCode.CREATE, new CreateRequest("/after", new byte[0],
                Perms.OPEN_ACL_UNSAFE, 0)));
        prep.forwarded(forward(OTHER, 1, OpCode.CREATE, new CreateRequest("/other", new byte[0],
                Perms.OPEN_ACL_UNSAFE, 0)));
        assertEquals(List.of("propose " + OTHER), events, "only the other session's write went on");
        assertEquals(10_000, gate.maxWaitMs, "a third of the session's 30 s timeout");

        prep.releaseWaiting(clock.monotonicMs());
        assertEquals(1, events.size(), "the wait is not over");

        gate.over = true;
        prep.releaseWaiting(clock.monotonicMs());
        // this preparer has no reconfigurer of an ensemble: the reconfig is refused, in its place
        assertEquals(List.of("propose " + OTHER, "refuse " + ADMIN + " " + ErrorCode.RECONFIG_DISABLED,
                "propose " + ADMIN), events);
        assertEquals(1, gate.prepared);
        assertEquals(1, gate.held, "the released reconfig is not asked about again");
    }

    @Test
    void leadershipEndingDropsWhatWaited() {
        state.sessions().add(ADMIN, 30_000, new byte[16]);
        prep.lead(EPOCH_2_FIRST, 0);
        prep.forwarded(forward(ADMIN, 1, OpCode.RECONFIG, new ReconfigRequest(null, "2", null, -1)));
        prep.follow();
        gate.over = true;
        prep.releaseWaiting(clock.monotonicMs());
        assertEquals(List.of(), events);
    }

    private static AppMessage.Forward forward(long sessionId, int xid, int opcode, Record body) {
        return new AppMessage.Forward(1, sessionId, xid, opcode, body, "127.0.0.1:40000", List.of(),
                30_000, new byte[16]);
    }
}
