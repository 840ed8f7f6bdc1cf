package dev.warden.sim;

import dev.warden.server.recovery.RecoveryPlan;
import java.util.ArrayList;
import java.util.List;

/**
 * Rebuilds a member's state from its {@link SimDisk} with the server's own rule,
 * {@link RecoveryPlan} (docs/STORAGE.md, "Recovery: only a state the data proves"): the facts
 * come from the model of the disk, the decision from the production code, and carrying it out
 * mirrors what {@code DataDirRecovery} does for an ensemble member. Also the rule as it was
 * before ({@link #trusting}), so the checkers can be shown to catch what it got wrong.
 */
final class SimRecovery {
    /**
     * How a member came up (its state rebuilt in place): whether it must take a copy of a leader's
     * history before it counts toward any quorum, what was decided (for the trace), and whether
     * this was the case the trusting rule gets wrong: every snapshot damaged and the log's start gone.
     */
    record Outcome(boolean resyncRequired, String description, boolean startLost) { }

    private SimRecovery() {
    }

    /**
     * Start-up as an ensemble member: with a resync marker, or data that proves no state, the
     * whole history is set aside behind the marker and the member starts empty; otherwise the
     * plan's snapshot plus the log after it, with what the plan does not use set aside.
     */
    static Outcome atStart(SimDisk disk, TreeMachine machine, SnapshotLedger ledger) {
        boolean startLost = startLost(disk);
        if (disk.hasResyncMarker()) {
            return startOver(disk, machine, "resync marker present: starts over empty", startLost);
        }
        RecoveryPlan.Decision decision = decide(disk);
        if (decision instanceof RecoveryPlan.Unprovable unprovable) {
            return startOver(disk, machine, "unprovable (" + String.join("; ", unprovable.problems())
                    + "): history set aside, resync required", startLost);
        }
        RecoveryPlan.Recover plan = (RecoveryPlan.Recover) decision;
        List<Long> segments = plan.setAsideSegments().stream().map(RecoveryPlan.SegmentFacts::firstZxid).toList();
        List<Long> snapshots = plan.setAsideSnapshots().stream().map(RecoveryPlan.SnapshotFacts::zxid).toList();
        if (!segments.isEmpty() || !snapshots.isEmpty()) {
            disk.setAside(segments, snapshots);
            disk.fsync();
        }
        rebuild(disk, machine, plan, ledger);
        String setAside = segments.isEmpty() && snapshots.isEmpty() ? ""
                : ", set aside " + segments.size() + " segments and " + snapshots.size() + " snapshots";
        return new Outcome(false, "recovered from " + plan.describe() + setAside, startLost);
    }

    /**
     * The state after a TRUNC, as the server's {@code DataDirRecovery.rebuild}: the plan over the
     * truncated log (nothing is moved), replayed to its end. A running member's data always
     * proves its state, so anything else is an error in the simulation or the rule.
     */
    static void afterTruncation(SimDisk disk, TreeMachine machine, SnapshotLedger ledger) {
        RecoveryPlan.Decision decision = decide(disk);
        if (decision instanceof RecoveryPlan.Unprovable unprovable) {
            throw new IllegalStateException("a member cannot rebuild its state after a TRUNC: "
                    + String.join("; ", unprovable.problems()));
        }
        rebuild(disk, machine, (RecoveryPlan.Recover) decision, ledger);
    }

    /**
     * The rule before recovery had to prove continuity: the newest valid snapshot, else the
     * empty tree, plus whatever log there is after it, up to {@code upToZxid}; never a resync.
     * A member whose snapshots were all damaged and whose log lost its start comes up with the
     * empty tree plus a late part of the log.
     */
    static Outcome trusting(SimDisk disk, TreeMachine machine, long upToZxid, SnapshotLedger ledger) {
        SnapshotFile newestValid = null;
        for (SnapshotFile file : disk.snapshots()) {
            if (!file.damaged()) {
                newestValid = file;
            }
        }
        machine.rebuild(newestValid == null ? null : newestValid.data(),
                disk.entriesAfter(newestValid == null ? 0 : newestValid.zxid()), upToZxid, ledger);
        String from = newestValid == null ? "the empty tree" : newestValid.name();
        boolean startLost = startLost(disk);
        String hazard = startLost ? " (every snapshot damaged, the log's records start after 0x"
                + Long.toHexString(disk.firstReadableZxid()) + ")" : "";
        return new Outcome(false, "trusted " + from + " and the log after it" + hazard, startLost);
    }

    /** The facts of the disk, decided by the production rule. */
    static RecoveryPlan.Decision decide(SimDisk disk) {
        List<RecoveryPlan.SnapshotFacts> snapshots = new ArrayList<>();
        for (SnapshotFile file : disk.snapshots()) {
            snapshots.add(new RecoveryPlan.SnapshotFacts(file.zxid(), file.reachedZxid(), file.name(),
                    file.damaged() ? "damaged at rest: its checksum does not verify" : null));
        }
        List<RecoveryPlan.SegmentFacts> segments = new ArrayList<>();
        List<SimLog.Segment> onDisk = disk.segments();
        for (int i = 0; i < onDisk.size(); i++) {
            SimLog.Segment segment = onDisk.get(i);
            segments.add(new RecoveryPlan.SegmentFacts(segment.previousZxid(), segment.firstZxid(),
                    disk.lastZxidOfSegment(i), segment.name(), null));
        }
        return RecoveryPlan.decide(snapshots, segments, disk.emptyLogStart(), disk::contains);
    }

    /** The plan's snapshot (or the empty tree) and the log after it up to the plan's end. */
    private static void rebuild(SimDisk disk, TreeMachine machine, RecoveryPlan.Recover plan, SnapshotLedger ledger) {
        SnapshotFile snapshot = null;
        if (plan.snapshot() != null) {
            snapshot = disk.snapshots().stream().filter(f -> f.zxid() == plan.snapshot().zxid()).findFirst()
                    .orElseThrow();
        }
        machine.rebuild(snapshot == null ? null : snapshot.data(), disk.entriesAfter(plan.fromZxid()),
                plan.logEndZxid(), ledger);
        long expectedZxid = Math.max(plan.fromZxid(), plan.logEndZxid());
        if (machine.lastZxid() != expectedZxid) {
            throw new IllegalStateException("a member replayed to " + Long.toHexString(machine.lastZxid())
                    + ", not to the end of the log " + Long.toHexString(expectedZxid));
        }
    }

    /** The marker first (durably), then the whole history aside; the member starts empty. */
    private static Outcome startOver(SimDisk disk, TreeMachine machine, String why, boolean startLost) {
        disk.setAsideHistory();
        disk.fsync();
        machine.clear();
        return new Outcome(true, why, startLost);
    }

    /** Every snapshot damaged and the log's records starting after 0: what the trusting rule gets wrong. */
    private static boolean startLost(SimDisk disk) {
        List<SnapshotFile> snapshots = disk.snapshots();
        return !snapshots.isEmpty() && snapshots.stream().allMatch(SnapshotFile::damaged) && !disk.segments().isEmpty()
                && disk.firstReadableZxid() > 0;
    }
}
