package dev.warden.sim;

import java.util.Collection;
import java.util.HashSet;
import java.util.Set;

/** How many faults of each kind a run injected, for its summary line and the seed sweeps' totals. */
final class FaultTally {
    long crashes;
    long reconfigRequests;
    private long snapshotsDamaged;
    private long segmentsLost;
    private long damagedRestarts;
    /** Members whose files were damaged or lost since they last started. */
    private final Set<Long> damagedAtRest = new HashSet<>();

    void snapshotDamaged(long id) {
        damagedAtRest.add(id);
        snapshotsDamaged++;
    }

    void segmentLost(long id) {
        damagedAtRest.add(id);
        segmentsLost++;
    }

    /** A member starts again; it counts as a damaged restart if its files were damaged while it was down. */
    void restarted(long id) {
        if (damagedAtRest.remove(id)) {
            damagedRestarts++;
        }
    }

    boolean damagedSinceStart(long id) {
        return damagedAtRest.contains(id);
    }

    RandomRun.FaultCounts counts(Collection<SimServer> members, SimNetwork network, Checkers checkers) {
        long lostWrites = 0;
        long torn = 0;
        long slow = 0;
        long resyncStarts = 0;
        long startLost = 0;
        long abandoned = 0;
        for (SimServer member : members) {
            lostWrites += member.disk.lostWriteCount();
            torn += member.disk.tornTailCount();
            slow += member.logWriter.slowFsyncs;
            resyncStarts += member.resyncStarts;
            startLost += member.startLostStarts;
            abandoned += member.historiesAbandoned;
        }
        return new RandomRun.FaultCounts(crashes, network.lostCount(), network.duplicatedCount(), lostWrites, torn, slow,
                snapshotsDamaged, segmentsLost, damagedRestarts, startLost, resyncStarts, abandoned, reconfigRequests,
                checkers.configurationsCommitted());
    }
}
