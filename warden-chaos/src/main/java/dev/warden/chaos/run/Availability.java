package dev.warden.chaos.run;

import dev.warden.chaos.history.Op;
import dev.warden.chaos.nemesis.FaultWindow;
import java.util.List;
import java.util.Set;

/**
 * Write availability after each heal: from the heal to the first write acknowledged after it, by
 * any workload. A fault that never stopped writes scores the gap to the next acknowledgement.
 */
public final class Availability {
    /** The operations that are writes acknowledged by a quorum. */
    static final Set<String> WRITES = Set.of("cas", "add", "enqueue", "fenced-write", "dequeue");

    /** @param firstWriteAfterHealMs -1 when no write was acknowledged after the heal for the rest of the run */
    public record Recovery(FaultWindow window, long firstWriteAfterHealMs, long wholeAfterHealMs) {
    }

    private Availability() {
    }

    public static List<Recovery> of(List<FaultWindow> windows, List<Op> ops) {
        List<Op> writes = ops.stream().filter(Op::ok).filter(op -> WRITES.contains(op.f()))
                .sorted((a, b) -> Long.compare(a.completeNs(), b.completeNs())).toList();
        return windows.stream().map(w -> {
            long first = writes.stream().filter(op -> op.completeNs() >= w.healNs()).findFirst()
                    .map(op -> (op.completeNs() - w.healNs()) / 1_000_000).orElse(-1L);
            long whole = w.wholeAgainNs() < 0 ? -1 : (w.wholeAgainNs() - w.healNs()) / 1_000_000;
            return new Recovery(w, first, whole);
        }).toList();
    }
}
