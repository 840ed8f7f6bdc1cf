package dev.warden.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.consensus.Entry;
import dev.warden.state.tree.DataNode;
import dev.warden.state.txn.Txn;
import dev.warden.state.txn.TxnBody;
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
    static long write(Simulation sim, SimServer member) {
        return write(sim, member, 1, SimClient.Kind.CREATE);
    }

    /** A write of this kind by client {@code clientId} through {@code member}; waits for success, returns its zxid. */
    static long write(Simulation sim, SimServer member, long clientId, SimClient.Kind kind) {
        SimClient client = sim.client(clientId);
        client.connectTo(member.id());
        int before = client.history().size();
        assertTrue(sim.clientWrite(client.id(), kind), "member " + member.id() + " took no write");
        sim.runUntil(s -> client.history().size() > before, 5_000);
        SimClient.Op op = client.history().get(client.history().size() - 1);
        assertTrue(op.ok(), "write failed: " + op);
        return op.zxid();
    }

    /**
     * Writes and takes a local snapshot, again and again, until the autopurge (which keeps the
     * newest three snapshots and the log needed to replay the oldest) has deleted the first
     * segment of the member's log; returns the zxid of the last write.
     */
    static long purgeLogStart(Simulation sim, SimServer member) {
        long lastWrite = 0;
        for (int i = 0; i < 10 && member.disk.firstReadableZxid() == 0; i++) {
            lastWrite = write(sim, member);
            sim.runFor(20);
            member.purge();
        }
        assertTrue(member.disk.firstReadableZxid() > 0, "member " + member.id() + "'s log start was purged");
        return lastWrite;
    }

    /** Starts a write from client {@code clientId} (not 1) through {@code member} without waiting for it. */
    static void startWrite(Simulation sim, long clientId, SimServer member) {
        startWrite(sim, clientId, member, SimClient.Kind.CREATE);
    }

    static void startWrite(Simulation sim, long clientId, SimServer member, SimClient.Kind kind) {
        sim.client(clientId).connectTo(member.id());
        assertTrue(sim.clientWrite(clientId, kind));
    }

    static List<SimServer> followers(Simulation sim) {
        SimServer leader = sim.leader();
        return sim.members().stream().filter(m -> m != leader).toList();
    }

    /** Restarts everyone, heals the network and checks the ensemble converges with every check passing. */
    static void recoverAndCheck(Simulation sim) {
        sim.heal();
        sim.discardHeld();
        for (SimServer member : sim.members()) {
            sim.setSlowDisk(member.id(), 0);
            sim.restart(member.id());
        }
        sim.runUntil(Simulation::converged, 30_000);
        write(sim, sim.leader());
        sim.runUntil(Simulation::converged, 30_000);
        sim.checkConverged();
    }

    /** The transaction logged at {@code zxid} on this member's disk, or null if it has none there. */
    static Txn loggedTxn(SimServer member, long zxid) {
        List<Entry> entries = member.disk.read(zxid - 1, zxid, 1);
        return entries.isEmpty() || entries.get(0).zxid() != zxid ? null : Txn.decode(entries.get(0).payload());
    }

    /** The path a logged create made (the scenarios strand sequential creates). */
    static String createdPath(SimServer member, long zxid) {
        Txn txn = loggedTxn(member, zxid);
        assertTrue(txn != null && txn.body() instanceof TxnBody.Create, "a create is logged at " + Long.toHexString(zxid));
        return ((TxnBody.Create) txn.body()).path();
    }

    /** True if the member's tree has the node at path, created by the txn at {@code zxid} (not a later namesake). */
    static boolean hasNodeFrom(SimServer member, String path, long zxid) {
        DataNode node = member.machine().tree().node(path);
        return node != null && node.czxid() == zxid;
    }

    /** Every member serves the same tree: equal rolling digests (the checkers compare them too). */
    static void assertSameTrees(Simulation sim) {
        long digest = sim.leader().machine().digest();
        for (SimServer member : sim.members()) {
            assertEquals(digest, member.machine().digest(), "member " + member.id() + " tree differs from the leader's");
        }
    }

    static boolean applied(SimServer member, long zxid) {
        return member.machine().applied(zxid);
    }
}
