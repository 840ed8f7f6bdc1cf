package dev.warden.sim;

import static dev.warden.sim.ScenarioSupport.applied;
import static dev.warden.sim.ScenarioSupport.followers;
import static dev.warden.sim.ScenarioSupport.recoverAndCheck;
import static dev.warden.sim.ScenarioSupport.startWrite;
import static dev.warden.sim.ScenarioSupport.warmUp;
import static dev.warden.sim.ScenarioSupport.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.consensus.ZabMessage;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * With three voters a follower commits what both its own disk and the leader's hold, without
 * waiting for the COMMIT (LeaderDurable; docs/ENSEMBLE.md, "Committing"). Each half of that rule
 * is needed: one disk is not a quorum. Losing an answered write through a follower that committed
 * on one disk takes two faults in a narrow window, which random runs seldom line up, so these
 * scenarios line them up: the one disk that holds the write crashes, the member whose copy was
 * still unsynced crashes and loses it, and the two members left elect a leader without it.
 * The checkers (committed prefixes agree, acknowledged writes survive) judge every step, and each
 * test also asserts that the client got no answer and the follower applied nothing.
 *
 * <p>Each runs with both ways the simulator drives a member: one batch at a time, and pipelined as
 * the server's MemberDriver does (fsyncs in flight while the member takes more messages). The
 * follower's own-disk half is enforced twice: by the core's rule, and by the driver, which applies
 * a commit only once every batch before it is durable. Dropping that half from the core alone
 * loses no write (the driver still holds the apply back), so the first test also checks the
 * core's committed zxid, which the pipelined run would move. Dropping the leader's half loses an
 * answered write, and the second test fails on it.
 */
class TwoDiskCommitScenariosTest {

    private static final long CLIENT = 2;

    /** Three voters, one client each, settled and serving; every member driven the same way. */
    private static Simulation settledEnsemble(long seed, boolean pipelined) {
        Simulation sim = new Simulation(seed, 3, 3);
        for (SimMember member : sim.members()) {
            sim.setPipelined(member.id(), pipelined);
        }
        warmUp(sim);
        return sim;
    }

    /** A one-batch driver appends before the fsync, the pipelined one at its end: either way not durable yet. */
    private static boolean notDurableOn(SimMember member, long zxid) {
        return !member.disk.contains(zxid) || member.disk.hasUnsynced();
    }

    /**
     * The leader logs and syncs a write sent through follower F, and tells F so (LeaderDurable);
     * F has appended it but its fsync hangs, and the third member never gets the proposal. F must
     * not commit on the leader's disk alone: the leader then crashes, F crashes and loses the
     * unsynced append, and F and the third member elect a leader that never saw the write.
     */
    @ParameterizedTest(name = "pipelined={0}")
    @ValueSource(booleans = {false, true})
    void aFollowerDoesNotCommitOnTheLeadersDiskAlone(boolean pipelined) {
        Simulation sim = settledEnsemble(2411, pipelined);
        SimMember leader = sim.leader();
        SimMember viaFollower = followers(sim).get(0);
        SimMember other = followers(sim).get(1);
        int answersBefore = sim.client(CLIENT).history().size();
        int leaderDurableBefore = sim.deliveredCount(ZabMessage.LeaderDurable.class);

        AtomicBoolean proposalArrived = new AtomicBoolean();
        sim.stallDisk(viaFollower.id(), true);
        sim.hold(Simulation.message(ZabMessage.Propose.class, leader.id(), other.id()));
        sim.interceptOnce(Simulation.message(ZabMessage.Propose.class, leader.id(), viaFollower.id()), s -> {
            proposalArrived.set(true);
            return Simulation.Verdict.DELIVER;
        });
        startWrite(sim, CLIENT, viaFollower);
        sim.runFor(200);

        long written = leader.disk.lastZxid();
        assertTrue(written > leader.machine().lastZxid() && !leader.disk.hasUnsynced(), "the leader synced the write");
        assertTrue(proposalArrived.get(), "the follower got the proposal");
        assertTrue(notDurableOn(viaFollower, written), "but its fsync has not finished");
        assertTrue(sim.deliveredCount(ZabMessage.LeaderDurable.class) > leaderDurableBefore,
                "the follower heard that the write is on the leader's disk");
        assertTrue(viaFollower.peer().committedZxid() < written, "one disk is not a quorum: the follower's core"
                + " did not count the write committed");
        assertFalse(applied(viaFollower, written), "nor did it apply it");
        assertEquals(answersBefore, sim.client(CLIENT).history().size(), "and the client got no answer");

        sim.crash(leader.id());
        sim.crash(viaFollower.id(), false);
        sim.discardHeld();
        sim.stallDisk(viaFollower.id(), false);
        sim.restart(viaFollower.id());
        sim.runUntil(s -> s.leader() != null && s.leader() != leader, 10_000);
        assertFalse(viaFollower.disk.contains(written), "the unsynced copy died with the follower");
        write(sim, sim.leader());
        recoverAndCheck(sim);
        assertFalse(sim.leader().disk.contains(written), "the write that was never answered is gone");
    }

    /**
     * The mirror case: follower F logs and syncs a write sent through it, but the leader's fsync
     * hangs, so no LeaderDurable and no COMMIT come. F must not commit on its own disk alone: F then
     * crashes, the leader crashes and loses its unsynced append, and the leader and the third
     * member elect a leader that never saw the write.
     */
    @ParameterizedTest(name = "pipelined={0}")
    @ValueSource(booleans = {false, true})
    void aFollowerDoesNotCommitOnItsOwnDiskAlone(boolean pipelined) {
        Simulation sim = settledEnsemble(2412, pipelined);
        SimMember leader = sim.leader();
        SimMember viaFollower = followers(sim).get(0);
        SimMember other = followers(sim).get(1);
        int answersBefore = sim.client(CLIENT).history().size();

        sim.stallDisk(leader.id(), true);
        sim.hold(Simulation.message(ZabMessage.Propose.class, leader.id(), other.id()));
        startWrite(sim, CLIENT, viaFollower);
        sim.runFor(200);

        long written = viaFollower.disk.lastZxid();
        assertTrue(written > viaFollower.machine().lastZxid(), "the follower logged a write it has not applied");
        assertFalse(viaFollower.disk.hasUnsynced(), "and synced it");
        assertTrue(notDurableOn(leader, written), "the leader's copy is not durable");
        assertFalse(applied(viaFollower, written), "one disk is not a quorum: the follower applied nothing");
        assertEquals(answersBefore, sim.client(CLIENT).history().size(), "and the client got no answer");

        sim.crash(viaFollower.id());
        sim.crash(leader.id(), false);
        sim.discardHeld();
        sim.stallDisk(leader.id(), false);
        sim.restart(leader.id());
        sim.runUntil(s -> s.leader() != null && leader.isServing() && other.isServing(), 10_000);
        assertFalse(leader.disk.contains(written), "the unsynced copy died with the leader");
        write(sim, sim.leader());
        recoverAndCheck(sim);
        assertFalse(sim.leader().disk.contains(written), "the write that was never answered is gone");
    }
}
