package dev.warden.sim;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

/** Small steps scripted scenarios share: start an ensemble, write through a member, pick members by role. */
final class ScenarioSupport {
    private ScenarioSupport() {
    }

    /** Three voters with one client per member, settled and serving; every client has its session. */
    static Simulation settledEnsemble(long seed) {
        Simulation sim = new Simulation(seed, 3, 3);
        warmUp(sim);
        return sim;
    }

    /**
     * Waits for a leader, then gives every client its session and creates the register and the
     * sequence parent (one CAS and one create each), so a scenario's writes are single proposals.
     */
    static void warmUp(Simulation sim) {
        sim.runUntil(Simulation::converged, 10_000);
        for (SimClient client : sim.clients()) {
            long home = client.memberId();
            for (SimClient.Kind kind : new SimClient.Kind[]{SimClient.Kind.CAS, SimClient.Kind.CREATE}) {
                client.connectTo(sim.leader().id());
                int before = client.history().size();
                assertTrue(sim.clientWrite(client.id(), kind), "the leader took no write");
                sim.runUntil(s -> client.history().size() > before, 5_000);
            }
            client.connectTo(home);
        }
        sim.runUntil(Simulation::converged, 10_000);
    }

    /** Writes through {@code member} with client 1 and waits for the reply; returns the zxid the write got. */
    static long write(Simulation sim, SimMember member) {
        SimClient client = sim.client(1);
        client.connectTo(member.id());
        int before = client.history().size();
        assertTrue(sim.clientWrite(client.id(), SimClient.Kind.CREATE), "member " + member.id() + " took no write");
        sim.runUntil(s -> client.history().size() > before, 5_000);
        SimClient.Op op = client.history().get(client.history().size() - 1);
        assertTrue(op.ok(), "write failed: " + op);
        return op.zxid();
    }

    /** Starts a write from client {@code clientId} (not 1) through {@code member} without waiting for it. */
    static void startWrite(Simulation sim, long clientId, SimMember member) {
        sim.client(clientId).connectTo(member.id());
        assertTrue(sim.clientWrite(clientId, SimClient.Kind.CREATE));
    }

    static List<SimMember> followers(Simulation sim) {
        SimMember leader = sim.leader();
        return sim.members().stream().filter(m -> m != leader).toList();
    }

    /** Restarts everyone, heals the network and checks the ensemble converges with every check passing. */
    static void recoverAndCheck(Simulation sim) {
        sim.heal();
        sim.discardHeld();
        for (SimMember member : sim.members()) {
            sim.setSlowDisk(member.id(), 0);
            sim.restart(member.id());
        }
        sim.runUntil(Simulation::converged, 30_000);
        write(sim, sim.leader());
        sim.runUntil(Simulation::converged, 30_000);
        sim.checkConverged();
    }

    static boolean applied(SimMember member, long zxid) {
        return member.machine().applied(zxid);
    }
}
