package dev.warden.server.quorum;

import java.util.concurrent.Executor;
import java.util.function.Consumer;

/** Where the leader's prep sends its results: proposals and refusals to other members as the loop's own events, refusals of this member's requests straight to it. */
final class LoopPrepOutput implements LeaderPrep.Output {
    private final long myId;
    private final Consumer<LoopEvent> ownEvents;
    private final DriverEffects effects;
    private final Executor toLoop;

    LoopPrepOutput(long myId, Consumer<LoopEvent> ownEvents, DriverEffects effects, Executor toLoop) {
        this.myId = myId;
        this.ownEvents = ownEvents;
        this.effects = effects;
        this.toLoop = toLoop;
    }

    @Override
    public void propose(long zxid, byte[] txn) {
        ownEvents.accept(new LoopEvent.Propose(zxid, txn));
    }

    @Override
    public void refuse(long memberId, AppMessage.Failed failure) {
        if (memberId == myId) {
            effects.memberMessage(myId, failure);
        } else if (memberId > 0) {
            ownEvents.accept(new LoopEvent.ToMember(memberId, AppMessage.encode(failure)));
        }
    }

    @Override
    public void onDriverThread(Runnable body) {
        toLoop.execute(body);
    }
}
