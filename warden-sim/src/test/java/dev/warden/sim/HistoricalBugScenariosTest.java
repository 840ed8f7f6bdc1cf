package dev.warden.sim;

import static dev.warden.sim.ScenarioSupport.applied;
import static dev.warden.sim.ScenarioSupport.followers;
import static dev.warden.sim.ScenarioSupport.recoverAndCheck;
import static dev.warden.sim.ScenarioSupport.settledEnsemble;
import static dev.warden.sim.ScenarioSupport.startWrite;
import static dev.warden.sim.ScenarioSupport.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.consensus.ZabMessage;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Fault patterns behind well-known ZooKeeper replication bugs, replayed against our core. Each
 * test sets the pattern up step by step, checks the protocol took the path in question, and lets
 * the checkers (prefix agreement, acknowledged writes survive, equal digests) judge the outcome.
 */
class HistoricalBugScenariosTest {

    /**
     * A proposal reaches one follower only and is never committed; leader and that follower go down
     * before the rest elect a new leader. The follower with the highest zxid returns later and
     * must drop its extra entry instead of keeping it.
     */
    private static long strandUncommittedEntryOnOneFollower(Simulation sim, SimMember leader, SimMember holder,
                                                            SimMember other) {
        sim.stallDisk(leader.id(), true);
        sim.hold(Simulation.message(ZabMessage.Propose.class, leader.id(), other.id()));
        startWrite(sim, 2, leader);
        sim.runFor(100);
        long stranded = holder.disk.lastZxid();
        assertTrue(stranded > leader.machine().lastZxid(), "the follower logged a proposal nobody committed");
        sim.crash(leader.id(), false);
        sim.crash(holder.id());
        sim.discardHeld();
        sim.stallDisk(leader.id(), false);
        sim.restart(leader.id());
        sim.runUntil(s -> s.leader() != null, 10_000);
        write(sim, sim.leader());
        return stranded;
    }

    @Test
    void zookeeper1154_memberWithTheHighestZxidAbsentFromElectionIsTruncatedOnReturn() {
        Simulation sim = settledEnsemble(1154);
        SimMember leader = sim.leader();
        SimMember holder = followers(sim).get(0);
        SimMember other = followers(sim).get(1);
        write(sim, leader);
        long stranded = strandUncommittedEntryOnOneFollower(sim, leader, holder, other);
        int truncsBefore = sim.deliveredCount(ZabMessage.Trunc.class);
        sim.restart(holder.id());
        sim.runUntil(Simulation::converged, 10_000);
        assertTrue(sim.deliveredCount(ZabMessage.Trunc.class) > truncsBefore, "the returning member got TRUNC");
        assertFalse(holder.disk.contains(stranded));
        assertFalse(applied(holder, stranded));
        recoverAndCheck(sim);
    }

    @Test
    void zookeeper2832_crashDuringTruncDoesNotResurrectDroppedEntries() {
        Simulation sim = settledEnsemble(2832);
        SimMember leader = sim.leader();
        SimMember holder = followers(sim).get(0);
        SimMember other = followers(sim).get(1);
        long stranded = strandUncommittedEntryOnOneFollower(sim, leader, holder, other);
        // the truncation is written but not yet synced when the member crashes
        AtomicBoolean truncSeen = new AtomicBoolean();
        sim.interceptOnce(p -> p.message() instanceof ZabMessage.Trunc && p.to() == holder.id(), s -> {
            truncSeen.set(true);
            s.stallDisk(holder.id(), true);
            return Simulation.Verdict.DELIVER;
        });
        sim.restart(holder.id());
        sim.runUntil(s -> truncSeen.get(), 10_000);
        sim.runFor(50);
        assertTrue(holder.disk.hasUnsynced() && !holder.disk.contains(stranded), "truncated in the page cache only");
        sim.crash(holder.id(), false);
        assertTrue(holder.disk.contains(stranded), "the unsynced truncation was undone by the crash");
        sim.stallDisk(holder.id(), false);
        sim.restart(holder.id());
        sim.runUntil(Simulation::converged, 10_000);
        assertFalse(holder.disk.contains(stranded));
        recoverAndCheck(sim);
    }

    @Test
    void zookeeper3642_leaderCrashBetweenSnapAndNewLeaderLosesNothing() {
        Simulation sim = settledEnsemble(3642);
        SimMember leader = sim.leader();
        SimMember lagging = followers(sim).get(0);
        sim.crash(lagging.id());
        for (int i = 0; i < 5; i++) {
            write(sim, leader);
        }
        sim.runFor(50);
        leader.purge();
        assertTrue(leader.disk.firstReadableZxid() > 0, "the leader's log was purged behind a snapshot");
        sim.interceptOnce(Simulation.message(ZabMessage.NewLeader.class, leader.id(), lagging.id()), s -> {
            s.crash(leader.id());
            return Simulation.Verdict.DROP;
        });
        sim.restart(lagging.id());
        sim.runUntil(s -> !leader.isUp(), 10_000);
        assertEquals(1, sim.deliveredCount(ZabMessage.Snap.class), "the lagging member was sent a snapshot");
        sim.runUntil(s -> s.leader() != null && lagging.isServing(), 10_000);
        write(sim, sim.leader());
        // the member that took the snapshot restarts: what it learned must be on its disk
        sim.crash(lagging.id());
        sim.restart(lagging.id());
        recoverAndCheck(sim);
    }

    @Test
    void zookeeper3911_newLeaderAckOnlyAfterDiffEntriesAreDurable() {
        Simulation sim = settledEnsemble(3911);
        SimMember leader = sim.leader();
        SimMember lagging = followers(sim).get(0);
        SimMember other = followers(sim).get(1);
        sim.crash(lagging.id());
        for (int i = 0; i < 4; i++) {
            write(sim, leader);
        }
        long last = leader.machine().lastZxid();
        // restart into an election where the lagging member's NEWLEADER ack is needed for a quorum
        sim.crash(other.id());
        sim.crash(leader.id());
        sim.restart(leader.id());
        sim.setSlowDisk(lagging.id(), 200);
        AtomicBoolean durableWhenAcked = new AtomicBoolean();
        sim.interceptOnce(p -> p.message() instanceof ZabMessage.AckNewLeader && p.from() == lagging.id(), s -> {
            durableWhenAcked.set(lagging.disk.lastZxid() >= last && !lagging.disk.hasUnsynced());
            s.crash(lagging.id());
            return Simulation.Verdict.DELIVER;
        });
        sim.restart(lagging.id());
        sim.runUntil(s -> !lagging.isUp(), 10_000);
        assertTrue(durableWhenAcked.get(), "NEWLEADER was acknowledged before the DIFF entries were synced");
        sim.crash(leader.id());
        sim.restart(lagging.id());
        sim.restart(other.id());
        sim.runUntil(s -> s.leader() != null, 10_000);
        assertTrue(applied(lagging, last) || applied(other, last));
        recoverAndCheck(sim);
    }

    @Test
    void zookeeper4646_followerCrashRightAfterItsAckKeepsTheCommittedWrite() {
        Simulation sim = settledEnsemble(4646);
        SimMember leader = sim.leader();
        SimMember follower = followers(sim).get(0);
        SimMember other = followers(sim).get(1);
        sim.crash(other.id());
        sim.setSlowDisk(follower.id(), 100);
        AtomicBoolean crashedAfterAck = new AtomicBoolean();
        sim.interceptOnce(p -> p.message() instanceof ZabMessage.Ack && p.from() == follower.id(), s -> {
            crashedAfterAck.set(true);
            s.crash(follower.id());
            return Simulation.Verdict.DELIVER;
        });
        long zxid = write(sim, leader);
        assertTrue(crashedAfterAck.get());
        sim.crash(leader.id());
        sim.restart(follower.id());
        sim.restart(other.id());
        sim.runUntil(s -> s.leader() != null, 10_000);
        sim.runUntil(s -> applied(follower, zxid) && applied(other, zxid), 10_000);
        recoverAndCheck(sim);
    }

    @Test
    void zookeeper4785_proposalsDuringSyncAreDurableBeforeTheyAreAcked() {
        Simulation sim = settledEnsemble(4785);
        SimMember leader = sim.leader();
        SimMember syncing = followers(sim).get(0);
        SimMember other = followers(sim).get(1);
        sim.crash(syncing.id());
        write(sim, leader);
        sim.crash(other.id());
        // the syncing member's disk is slow: proposals arrive while it still works through the sync
        sim.setSlowDisk(syncing.id(), 150);
        sim.hold(Simulation.message(ZabMessage.UpToDate.class, leader.id(), syncing.id()));
        sim.restart(syncing.id());
        sim.runUntil(s -> !s.heldPackets().isEmpty(), 10_000);
        long zxid = write(sim, leader);
        sim.releaseHeld();
        sim.runFor(20);
        sim.crash(syncing.id());
        sim.crash(leader.id());
        sim.setSlowDisk(syncing.id(), 0);
        sim.restart(syncing.id());
        sim.restart(other.id());
        sim.runUntil(s -> s.leader() != null, 10_000);
        sim.runUntil(s -> applied(other, zxid), 10_000);
        recoverAndCheck(sim);
    }

    @Test
    void zookeeper2355_tornProposalOnACrashedFollowerIsDroppedAfterReelection() {
        Simulation sim = settledEnsemble(2355);
        SimMember leader = sim.leader();
        SimMember follower = followers(sim).get(0);
        SimMember other = followers(sim).get(1);
        write(sim, leader);
        // two proposals reach the follower, whose disk hangs; the crash keeps only part of them
        sim.stallDisk(follower.id(), true);
        sim.stallDisk(leader.id(), true);
        sim.hold(Simulation.message(ZabMessage.Propose.class, leader.id(), other.id()));
        startWrite(sim, 2, leader);
        startWrite(sim, 3, follower);
        sim.runFor(100);
        assertTrue(follower.disk.hasUnsynced());
        sim.crash(follower.id());
        sim.crash(leader.id());
        sim.discardHeld();
        sim.stallDisk(follower.id(), false);
        sim.stallDisk(leader.id(), false);
        sim.restart(leader.id());
        sim.runUntil(s -> s.leader() != null, 10_000);
        write(sim, sim.leader());
        sim.restart(follower.id());
        recoverAndCheck(sim);
    }

    @Test
    void zookeeper5010_stateReplayedFromAnUncommittedTxnIsRebuiltByTrunc() {
        Simulation sim = settledEnsemble(5010);
        SimMember leader = sim.leader();
        SimMember holder = followers(sim).get(0);
        SimMember other = followers(sim).get(1);
        long stranded = strandUncommittedEntryOnOneFollower(sim, leader, holder, other);
        sim.restart(holder.id());
        assertTrue(applied(holder, stranded), "a restart replays the uncommitted entry into the state machine");
        sim.runUntil(Simulation::converged, 10_000);
        assertFalse(applied(holder, stranded), "the sync rebuilt the state without it");
        assertEquals(sim.leader().machine().digest(), holder.machine().digest());
        recoverAndCheck(sim);
    }
}
