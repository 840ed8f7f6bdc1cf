package dev.warden.sim;

import static dev.warden.sim.ScenarioSupport.followers;
import static dev.warden.sim.ScenarioSupport.settledEnsemble;
import static dev.warden.sim.ScenarioSupport.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.consensus.ZabMessage;
import org.junit.jupiter.api.Test;

/** A sync read through a follower sees the latest acknowledged write, and waits for a quorum heartbeat round. */
class SyncReadTest {

    @Test
    void syncReadThroughALaggingFollowerSeesTheLatestWrite() {
        Simulation sim = settledEnsemble(77);
        SimServer leader = sim.leader();
        SimServer lagging = followers(sim).get(0);
        SimServer other = followers(sim).get(1);
        // the lagging follower hears of new commits only late: neither the COMMIT nor what is on
        // the leader's disk (from which it could tell the write committed) reaches it yet
        sim.hold(Simulation.message(ZabMessage.Commit.class, leader.id(), lagging.id()));
        sim.hold(Simulation.message(ZabMessage.LeaderDurable.class, leader.id(), lagging.id()));
        sim.client(1).connectTo(leader.id());
        assertTrue(sim.clientWrite(1, SimClient.Kind.CAS));
        sim.runUntil(s -> !s.client(1).busy(), 5_000);
        long written = leader.machine().readRegister().version();
        assertTrue(lagging.machine().readRegister().version() < written, "the follower has not applied the write yet");

        SimClient reader = sim.client(2);
        reader.connectTo(lagging.id());
        sim.hold(Simulation.message(ZabMessage.PingAck.class, other.id(), leader.id()));
        sim.hold(Simulation.message(ZabMessage.PingAck.class, lagging.id(), leader.id()));
        assertTrue(reader.syncRead(lagging, sim.nowMs()));
        sim.runFor(300);
        assertTrue(reader.busy(), "no quorum heartbeat round yet, so the sync must wait");
        sim.releaseHeld();
        sim.runUntil(s -> !reader.busy(), 5_000);
        SimClient.Op read = reader.history().get(reader.history().size() - 1);
        assertEquals(SimClient.Kind.SYNC_READ, read.kind());
        assertEquals(written, read.version());
        assertFalse(reader.history().isEmpty());
        write(sim, leader);
    }
}
