package dev.warden.sim;

import dev.warden.consensus.SnapshotData;
import dev.warden.consensus.SnapshotSource;
import dev.warden.server.quorum.LoopEvent;
import java.util.List;
import java.util.function.Consumer;

/**
 * A simulated member's snapshots for SNAP syncs, as the server takes them: off the member's
 * loop, the answer coming back as work between its events (here at the member's next step, after
 * what other members sent meanwhile), so the leader's writes and syncs go on in between.
 */
final class StepLaterSnapshots implements SnapshotSource {
    private final TreeMachine machine;
    private final SnapshotLedger ledger;
    /** The member's events for its next step. */
    private final List<LoopEvent> nextStep;

    StepLaterSnapshots(TreeMachine machine, SnapshotLedger ledger, List<LoopEvent> nextStep) {
        this.machine = machine;
        this.ledger = ledger;
        this.nextStep = nextStep;
    }

    @Override
    public SnapshotData take() {
        return machine.snapshot(ledger);
    }

    @Override
    public void takeInBackground(Consumer<SnapshotData> taken) {
        SnapshotData snapshot = take();
        nextStep.add(new LoopEvent.Chore(() -> taken.accept(snapshot)));
    }
}
