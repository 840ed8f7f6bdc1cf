package dev.warden.chaos.run;

import dev.warden.chaos.history.Op;
import dev.warden.chaos.nemesis.FaultWindow;
import java.util.List;
import java.util.Set;

/**
 * Write availability around each fault: from the heal to the first write acknowledged after it,
 * by any workload (a fault that never stopped writes scores the gap to the next acknowledgement),
 * and the longest time without any acknowledged write from the fault's start until the ensemble
 * was whole again (or 10 s after the heal, if it was not).
 */
public final class Availability {
    /** The operations that are writes acknowledged by a quorum. */
    static final Set<String> WRITES = Set.of("cas", "add", "enqueue", "fenced-write", "dequeue");

    /**
     * @param firstWriteAfterHealMs -1 when no write was acknowledged after the heal for the rest of the run
     * @param longestWriteGapMs     the longest stretch with no acknowledged write inside the fault's span
     */
    public record Recovery(FaultWindow window, long firstWriteAfterHealMs, long wholeAfterHealMs,
                           long longestWriteGapMs) {
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
            long spanEndNs = Math.max(w.wholeAgainNs(), w.healNs() + 10_000_000_000L);
            if (w.wholeAgainNs() >= 0) {
                spanEndNs = Math.max(w.wholeAgainNs(), w.healNs());
            }
            long previousNs = w.startNs();
            long longestNs = 0;
            for (Op write : writes) {
                if (write.completeNs() < w.startNs()) {
                    continue;
                }
                if (write.completeNs() > spanEndNs) {
                    break;
                }
                longestNs = Math.max(longestNs, write.completeNs() - previousNs);
                previousNs = write.completeNs();
            }
            longestNs = Math.max(longestNs, spanEndNs - previousNs);
            return new Recovery(w, first, whole, longestNs / 1_000_000);
        }).toList();
    }
}
