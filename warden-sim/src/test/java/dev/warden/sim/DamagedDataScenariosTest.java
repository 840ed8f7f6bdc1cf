package dev.warden.sim;

import static dev.warden.sim.ScenarioSupport.followers;
import static dev.warden.sim.ScenarioSupport.settledEnsemble;
import static dev.warden.sim.ScenarioSupport.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.consensus.Role;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Members restarted on damaged data directories, with the server's recovery rule: every snapshot
 * damaged and the log's start gone (the state the data proves nothing about), a damaged newest
 * snapshot (an older one still proves the state), a history given up at run time. And the rule
 * from before, which came up with the empty tree plus a late part of the log and could lead with
 * it: the checkers must catch that.
 */
class DamagedDataScenariosTest {

    /**
     * Writes through the leader and has {@code member} take a local snapshot after each, so its
     * log is cut into several segments; one more write leaves a record after the last snapshot.
     */
    private static void snapshotsOn(Simulation sim, SimServer member, int count) {
        for (int i = 0; i < count; i++) {
            write(sim, sim.leader());
            sim.runUntil(Simulation::converged, 5_000);
            member.purge();
        }
        write(sim, sim.leader());
        sim.runUntil(Simulation::converged, 5_000);
        assertEquals(count, member.disk.snapshots().size());
        assertEquals(count + 1, member.disk.segments().size());
    }

    /** An ensemble whose leader is down, a member restarted on damaged data, and one that is behind. */
    private record EmptyTreeCase(Simulation sim, SimServer leader, SimServer damaged, SimServer behind) { }

    /**
     * Member {@code damaged} has every write; the other follower misses the last one, then the
     * leader goes down. The damaged member loses every snapshot and its log's first segment and
     * restarts. Its log is the most recent of the two that are up: the old rule let it lead; the
     * server's lets it neither lead nor vote.
     */
    private static EmptyTreeCase emptyTreeCandidate(long seed, boolean trusting, boolean pipelined) {
        Simulation sim = settledEnsemble(seed);
        for (SimServer member : sim.members()) {
            sim.setTrustingRecovery(member.id(), trusting);
            sim.setPipelined(member.id(), pipelined);
        }
        SimServer leader = sim.leader();
        SimServer damaged = followers(sim).get(0);
        SimServer behind = followers(sim).get(1);
        snapshotsOn(sim, damaged, 3);
        sim.crash(behind.id());
        write(sim, leader);
        sim.runUntil(s -> damaged.machine().lastZxid() == leader.machine().lastZxid(), 5_000);
        sim.crash(leader.id());
        sim.crash(damaged.id());
        for (SnapshotFile snapshot : damaged.disk.snapshots()) {
            sim.damageSnapshot(damaged.id(), snapshot.zxid());
        }
        sim.loseLogSegment(damaged.id(), 0);
        assertTrue(damaged.disk.firstReadableZxid() > 0 && damaged.disk.lastZxid() > behind.disk.lastZxid());
        sim.restart(damaged.id());
        sim.restart(behind.id());
        return new EmptyTreeCase(sim, leader, damaged, behind);
    }

    private static void theDamagedMemberResyncsAndNeverHelpsElect(boolean pipelined) {
        EmptyTreeCase setUp = emptyTreeCandidate(61, false, pipelined);
        Simulation sim = setUp.sim();
        SimServer damaged = setUp.damaged();
        assertTrue(damaged.peer().isResyncRequired() && damaged.disk.hasResyncMarker());
        assertEquals(0, damaged.machine().lastZxid());
        assertEquals(0, damaged.disk.lastZxid(), "its whole history was set aside");
        assertTrue(damaged.disk.snapshots().isEmpty());
        sim.runFor(3_000);
        assertNull(sim.leader(), "two members are up, but only one counts: no leader");

        sim.restart(setUp.leader().id());
        sim.runUntil(Simulation::converged, 20_000);
        assertEquals(setUp.leader(), sim.leader(), "the member holding every write leads");
        assertFalse(damaged.peer().isResyncRequired());
        assertFalse(damaged.disk.hasResyncMarker(), "the marker goes once it serves");
        write(sim, sim.leader());
        sim.runUntil(Simulation::converged, 5_000);
        sim.checkConverged();
        assertEquals(sim.leader().machine().digest(), damaged.machine().digest());
    }

    @Test
    void everySnapshotDamagedAndTheLogStartGoneMeansAResyncAndNoVote() {
        theDamagedMemberResyncsAndNeverHelpsElect(false);
    }

    @Test
    void everySnapshotDamagedAndTheLogStartGoneWithFsyncsInFlight() {
        theDamagedMemberResyncsAndNeverHelpsElect(true);
    }

    @Test
    void theTrustingRuleLetsTheEmptyTreeMemberLeadAndTheCheckersObject() {
        EmptyTreeCase setUp = emptyTreeCandidate(61, true, false);
        Simulation sim = setUp.sim();
        SimServer damaged = setUp.damaged();
        assertFalse(damaged.peer().isResyncRequired());
        assertTrue(damaged.machine().lastZxid() > 0 && !damaged.machine().hasNode(SimRequest.REGISTER),
                "the empty tree plus a late part of the log");
        Checkers.Violation violation = assertThrows(Checkers.Violation.class,
                () -> sim.runUntil(Simulation::converged, 20_000));
        assertTrue(violation.getMessage().startsWith("member " + damaged.id() + " committed ")
                && violation.getMessage().contains("at position 0 where the history has 0x100000001"),
                violation.getMessage());
        assertEquals(Role.LEADING, damaged.peer().role(), "it led the other member with its empty tree");
    }

    @Test
    void aDamagedNewestSnapshotIsSetAsideAndAnOlderOneStillProvesTheState() {
        Simulation sim = settledEnsemble(62);
        SimServer member = followers(sim).get(0);
        snapshotsOn(sim, member, 2);
        List<SnapshotFile> snapshots = member.disk.snapshots();
        sim.crash(member.id());
        sim.damageSnapshot(member.id(), snapshots.get(1).zxid());
        sim.restart(member.id());
        assertFalse(member.peer().isResyncRequired());
        assertEquals(List.of(snapshots.get(0).zxid()), member.disk.snapshots().stream().map(SnapshotFile::zxid).toList(),
                "the damaged snapshot was set aside");
        sim.runUntil(Simulation::converged, 10_000);
        sim.checkConverged();
    }

    private static void aRunningMemberGivesUpItsHistory(boolean pipelined, boolean crashBeforeItHasACopy) {
        Simulation sim = settledEnsemble(63);
        for (SimServer member : sim.members()) {
            sim.setPipelined(member.id(), pipelined);
        }
        SimServer member = followers(sim).get(0);
        snapshotsOn(sim, member, 1);
        SimServer leader = sim.leader();
        if (crashBeforeItHasACopy) {
            // the leader is down, so no copy comes before the crash
            sim.crash(leader.id());
        }
        sim.abandonHistory(member.id());
        sim.step();
        assertTrue(member.disk.hasResyncMarker() && member.peer().isResyncRequired());
        assertEquals(0, member.disk.lastZxid());
        assertTrue(member.disk.snapshots().isEmpty());
        assertEquals(0, member.machine().lastZxid());
        if (crashBeforeItHasACopy) {
            sim.runFor(500);
            sim.crash(member.id());
            sim.restart(member.id());
            assertTrue(member.peer().isResyncRequired(), "the marker survived the crash: it starts over again");
            sim.restart(leader.id());
        }
        sim.runUntil(Simulation::converged, 20_000);
        assertFalse(member.disk.hasResyncMarker() || member.peer().isResyncRequired());
        sim.checkConverged();
        assertEquals(sim.leader().machine().digest(), member.machine().digest());
    }

    @Test
    void aRunningMemberThatGivesUpItsHistoryTakesACopyAndItsMarkerGoes() {
        aRunningMemberGivesUpItsHistory(false, false);
    }

    @Test
    void aRunningMemberGivesUpItsHistoryWithFsyncsInFlight() {
        aRunningMemberGivesUpItsHistory(true, false);
    }

    @Test
    void aMemberRestartedBeforeItHasACopyStartsOverAgain() {
        aRunningMemberGivesUpItsHistory(false, true);
        aRunningMemberGivesUpItsHistory(true, true);
    }
}
