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
 * <p>Each runs with both timings of the member's log writer: an instant fsync finishing before
 * the member's next cycle, and only in a later step (the member goes on with the fsync in flight).
 * The follower's own-disk half is enforced twice: by the core's rule, and by the member loop,
 * which applies a commit only once every batch before it is durable. Dropping that half from the
 * core alone loses no write (the loop still holds the apply back), so the first test also checks
 * the core's committed zxid, which would move. Dropping the leader's half loses an answered
 * write, and the second test fails on it.
 */
class TwoDiskCommitScenariosTest {

    private static final long CLIENT = 2;

    /** Three voters, one client each, settled and serving; every member's log writer with the same timing. */
    private static Simulation settledEnsemble(long seed, boolean pipelined) {
        Simulation sim = new Simulation(seed, 3, 3);
        for (SimServer member : sim.members()) {
            sim.setPipelined(member.id(), pipelined);
        }
        warmUp(sim);
        return sim;
    }

    /** The log writer appends at once and is durable only at the fsync: not there, or there unsynced. */
    private static boolean notDurableOn(SimServer member, long zxid) {
        return !member.disk.contains(zxid) || member.disk.hasUnsynced();
    }

    /** The leader, the follower the client writes through, and the member the proposal never reaches. */
    private record Roles(SimServer leader, SimServer viaFollower, SimServer other) {
        static Roles of(Simulation sim) {
            return new Roles(sim.leader(), followers(sim).get(0), followers(sim).get(1));
        }
    }

    /**
     * Hangs {@code hung}'s disk, keeps the proposal from the third member and sends a write through
     * the follower, then lets the run go on for 200 ms; the follower must have got the proposal.
     */
    private static void writeWhileOneDiskHangs(Simulation sim, Roles roles, SimServer hung) {
        AtomicBoolean proposalArrived = new AtomicBoolean();
        sim.stallDisk(hung.id(), true);
        sim.hold(Simulation.message(ZabMessage.Propose.class, roles.leader().id(), roles.other().id()));
        sim.interceptOnce(Simulation.message(ZabMessage.Propose.class, roles.leader().id(), roles.viaFollower().id()),
                s -> {
                    proposalArrived.set(true);
                    return Simulation.Verdict.DELIVER;
                });
        startWrite(sim, CLIENT, roles.viaFollower());
        sim.runFor(200);
        assertTrue(proposalArrived.get(), "the follower got the proposal");
    }

    /**
     * The member with the only durable copy crashes; the one whose copy was unsynced crashes too
     * and loses it, comes back, and elects a leader with the third member. That leader takes a
     * write, everyone recovers, and the write nobody answered is on no disk.
     */
    private static void crashBothCopiesAndElectWithout(Simulation sim, Roles roles, SimServer durableCopy,
                                                        SimServer unsyncedCopy, long written) {
        sim.crash(durableCopy.id());
        sim.crash(unsyncedCopy.id(), false);
        sim.discardHeld();
        sim.stallDisk(unsyncedCopy.id(), false);
        sim.restart(unsyncedCopy.id());
        sim.runUntil(s -> s.leader() != null && unsyncedCopy.isServing() && roles.other().isServing(), 10_000);
        assertFalse(unsyncedCopy.disk.contains(written), "the unsynced copy died in the crash");
        write(sim, sim.leader());
        recoverAndCheck(sim);
        for (SimServer member : sim.members()) {
            assertFalse(member.disk.contains(written), "the write that was never answered is gone");
        }
    }

    /**
     * The leader logs and syncs a write sent through follower F, and tells F so (LeaderDurable);
     * F has taken the proposal but its fsync hangs, and the third member never gets it. F must
     * not commit on the leader's disk alone: the leader then crashes, F crashes and loses its
     * unsynced copy, and F and the third member elect a leader that never saw the write.
     */
    @ParameterizedTest(name = "pipelined={0}")
    @ValueSource(booleans = {false, true})
    void aFollowerDoesNotCommitOnTheLeadersDiskAlone(boolean pipelined) {
        Simulation sim = settledEnsemble(2411, pipelined);
        Roles roles = Roles.of(sim);
        SimServer leader = roles.leader();
        SimServer viaFollower = roles.viaFollower();
        int answersBefore = sim.client(CLIENT).history().size();
        int leaderDurableBefore = sim.deliveredCount(ZabMessage.LeaderDurable.class);

        writeWhileOneDiskHangs(sim, roles, viaFollower);

        long written = leader.disk.lastZxid();
        assertTrue(written > leader.machine().lastZxid() && !leader.disk.hasUnsynced(), "the leader synced the write");
        assertTrue(notDurableOn(viaFollower, written), "the follower's fsync has not finished");
        assertTrue(sim.deliveredCount(ZabMessage.LeaderDurable.class) > leaderDurableBefore,
                "the follower heard that the write is on the leader's disk");
        assertTrue(viaFollower.peer().committedZxid() < written, "one disk is not a quorum: the follower's core"
                + " did not count the write committed");
        assertFalse(applied(viaFollower, written), "nor did it apply it");
        assertEquals(answersBefore, sim.client(CLIENT).history().size(), "and the client got no answer");

        crashBothCopiesAndElectWithout(sim, roles, leader, viaFollower, written);
    }

    /**
     * The mirror case: follower F logs and syncs a write sent through it, but the leader's fsync
     * hangs, so no LeaderDurable and no COMMIT come. F must not commit on its own disk alone: F then
     * crashes, the leader crashes and loses its unsynced copy, and the leader and the third member
     * elect a leader that never saw the write.
     */
    @ParameterizedTest(name = "pipelined={0}")
    @ValueSource(booleans = {false, true})
    void aFollowerDoesNotCommitOnItsOwnDiskAlone(boolean pipelined) {
        Simulation sim = settledEnsemble(2412, pipelined);
        Roles roles = Roles.of(sim);
        SimServer leader = roles.leader();
        SimServer viaFollower = roles.viaFollower();
        int answersBefore = sim.client(CLIENT).history().size();

        writeWhileOneDiskHangs(sim, roles, leader);

        long written = viaFollower.disk.lastZxid();
        assertFalse(viaFollower.disk.hasUnsynced(), "the follower synced the write");
        assertTrue(notDurableOn(leader, written), "the leader's fsync has not finished");
        assertFalse(applied(viaFollower, written), "one disk is not a quorum: the follower applied nothing");
        assertEquals(answersBefore, sim.client(CLIENT).history().size(), "and the client got no answer");

        crashBothCopiesAndElectWithout(sim, roles, viaFollower, leader, written);
    }
}
