package dev.warden.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.state.txn.Txn;
import dev.warden.state.txn.TxnBody;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The checkers must be able to fail: a driver that acknowledges before its fsync loses acknowledged
 * writes, whether it waits for each fsync or keeps them in flight; a tree changed outside the log
 * differs in digest.
 */
class CheckersCatchBrokenDriverTest {

    /**
     * The followers' disks hang, so whatever they ack of the next write they have not synced; they
     * crash with it and the leader crashes too. Returns the writes acknowledged meanwhile.
     */
    private static int loseUnsyncedAcks(Simulation sim) {
        ScenarioSupport.warmUp(sim);
        SimServer leader = sim.leader();
        List<SimServer> followers = sim.members().stream().filter(m -> m != leader).toList();
        for (SimServer follower : followers) {
            sim.stallDisk(follower.id(), true);
        }
        int ackedBefore = sim.checkers().ackedWriteCount();
        SimClient client = sim.clients().stream().filter(c -> c.memberId() == leader.id()).findFirst().orElseThrow();
        assertTrue(sim.clientWrite(client.id(), SimClient.Kind.CREATE));
        sim.runFor(300);
        for (SimServer follower : followers) {
            sim.crash(follower.id());
        }
        sim.crash(leader.id());
        for (SimServer follower : followers) {
            sim.stallDisk(follower.id(), false);
            sim.restart(follower.id());
        }
        sim.runUntil(s -> s.leader() != null, 20_000);
        sim.restart(leader.id());
        sim.runUntil(Simulation::converged, 20_000);
        sim.checkConverged();
        return sim.checkers().ackedWriteCount() - ackedBefore;
    }

    /** Breaks every member's driver to acknowledge before its fsync; the checkers must object. */
    private static void assertEarlyAcksAreCaught(Simulation sim) {
        for (SimServer member : sim.members()) {
            sim.breakDriverAckBeforePersist(member.id());
        }
        Checkers.Violation violation = assertThrows(Checkers.Violation.class, () -> loseUnsyncedAcks(sim));
        assertTrue(violation.getMessage().contains("acknowledged write") || violation.getMessage().contains("committed"),
                violation.getMessage());
    }

    @Test
    void ackBeforePersistIsCaughtAsALostWrite() {
        assertEarlyAcksAreCaught(new Simulation(7, 3, 3));
    }

    @Test
    void theCorrectDriverNeverAcknowledgesThatWrite() {
        Simulation sim = new Simulation(7, 3, 3);
        assertEquals(0, loseUnsyncedAcks(sim), "no client was told the write succeeded");
    }

    /** Every fsync finishes only in a later step, while the member goes on. */
    private static Simulation pipelined(long seed) {
        Simulation sim = new Simulation(seed, 3, 3);
        for (SimServer member : sim.members()) {
            sim.setPipelined(member.id(), true);
        }
        return sim;
    }

    @Test
    void ackBeforePersistIsCaughtWithFsyncsInFlight() {
        assertEarlyAcksAreCaught(pipelined(7));
    }

    @Test
    void theCorrectPipelinedDriverNeverAcknowledgesThatWrite() {
        assertEquals(0, loseUnsyncedAcks(pipelined(7)), "no client was told the write succeeded");
    }

    @Test
    void aTreeChangedOutsideTheLogIsCaughtByTheDigestCheck() {
        Simulation sim = new Simulation(8, 3, 3);
        ScenarioSupport.warmUp(sim);
        SimServer follower = ScenarioSupport.followers(sim).get(0);
        // a write that bypasses consensus: the member's history is unchanged, its tree is not
        follower.machine().state().apply(new Txn(0, 0, follower.machine().lastZxid(), 0,
                new TxnBody.SetData(SimRequest.REGISTER, SimRequest.valueBytes(42), 99)));
        Checkers.Violation violation = assertThrows(Checkers.Violation.class, sim::step);
        assertTrue(violation.getMessage().contains("tree digests differ"), violation.getMessage());
    }
}
