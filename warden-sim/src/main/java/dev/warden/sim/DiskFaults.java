package dev.warden.sim;

import java.util.List;
import java.util.SplittableRandom;

/**
 * The disk faults of a random run: a member crashes, some of its files are damaged or lost
 * while it is down (one snapshot, every snapshot, the oldest log segment as an over-eager purge
 * or an operator would delete it, now and then a middle one, or every snapshot and the log's
 * start together), and it restarts on that directory, now or later; and running members whose
 * core gives up its history.
 *
 * <p>A voter whose files were damaged (until a restart shows its data still proves its state),
 * or that must take a copy of a leader's history, vouches for no history. So that the liveness
 * phase still has a quorum of histories someone can vouch for, these faults never leave more
 * than a minority of the voters in that state at once, in every configuration a member knows
 * (reconfigurations change the voters); a fault that would is skipped. Observers and members
 * outside the configurations count toward nothing and may always be damaged.
 */
final class DiskFaults {
    private final Simulation sim;
    private final SplittableRandom random;

    DiskFaults(Simulation sim, SplittableRandom random) {
        this.sim = sim;
        this.random = random;
    }

    /** Crashes the member, damages or loses some of its files, and restarts it now or leaves that for later. */
    void damageAtRest(long id) {
        if (!mayLeaveUnvouched(id)) {
            return;
        }
        sim.crash(id);
        SimServer member = sim.member(id);
        List<SnapshotFile> snapshots = member.disk.snapshots();
        int segments = member.disk.segments().size();
        int pick = random.nextInt(8);
        if (pick < 2 && !snapshots.isEmpty()) {
            sim.damageSnapshot(id, snapshots.get(random.nextInt(snapshots.size())).zxid());
        } else if (pick == 2 && !snapshots.isEmpty()) {
            damageEverySnapshot(id, snapshots);
        } else if (pick < 5 && segments >= 2) {
            sim.loseLogSegment(id, 0);
        } else if (pick == 5 && segments >= 3) {
            sim.loseLogSegment(id, 1 + random.nextInt(segments - 2));
        } else if (pick >= 6 && !snapshots.isEmpty() && segments >= 2) {
            // the case recovery once got wrong: it came up with the empty tree and a late part of the log
            damageEverySnapshot(id, snapshots);
            sim.loseLogSegment(id, 0);
        }
        if (random.nextBoolean()) {
            sim.restart(id);
        }
    }

    /** A running member's core gives up its history and takes a copy from a leader. */
    void abandonHistory(long id) {
        if (sim.member(id).isUp() && mayLeaveUnvouched(id)) {
            sim.abandonHistory(id);
        }
    }

    private void damageEverySnapshot(long id, List<SnapshotFile> snapshots) {
        for (SnapshotFile snapshot : snapshots) {
            sim.damageSnapshot(id, snapshot.zxid());
        }
    }

    /**
     * True unless the fault would leave the voters of some known configuration whose histories
     * somebody still vouches for short of a quorum (by that configuration's rule: a majority, or
     * ZooKeeper's groups and weights).
     */
    private boolean mayLeaveUnvouched(long id) {
        if (unvouched(sim.member(id))) {
            return true;
        }
        for (dev.warden.consensus.QuorumVerifier quorum : sim.knownQuorums()) {
            if (!quorum.voters().contains(id)) {
                continue;
            }
            java.util.Set<Long> vouched = new java.util.HashSet<>();
            for (SimServer m : sim.members()) {
                if (m.id() != id && quorum.voters().contains(m.id()) && !unvouched(m)) {
                    vouched.add(m.id());
                }
            }
            if (!quorum.containsQuorum(vouched)) {
                return false;
            }
        }
        return true;
    }

    /** Damaged since it last started, or bound to take a copy of a leader's history first. */
    private boolean unvouched(SimServer member) {
        return sim.damagedSinceStart(member.id()) || member.disk.hasResyncMarker()
                || member.isUp() && member.peer().isResyncRequired();
    }
}
