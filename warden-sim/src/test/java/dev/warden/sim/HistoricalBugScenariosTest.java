package dev.warden.sim;

import static dev.warden.sim.ScenarioSupport.applied;
import static dev.warden.sim.ScenarioSupport.assertSameTrees;
import static dev.warden.sim.ScenarioSupport.createdPath;
import static dev.warden.sim.ScenarioSupport.followers;
import static dev.warden.sim.ScenarioSupport.hasNodeFrom;
import static dev.warden.sim.ScenarioSupport.purgeLogStart;
import static dev.warden.sim.ScenarioSupport.recoverAndCheck;
import static dev.warden.sim.ScenarioSupport.settledEnsemble;
import static dev.warden.sim.ScenarioSupport.startWrite;
import static dev.warden.sim.ScenarioSupport.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.consensus.ZabMessage;
import dev.warden.state.txn.TxnBody;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The event sequences of published ZooKeeper replication bugs, replayed step by step against our
 * Zab core and the server's own state machine (prep, Txn payloads, DataTree). Each test checks
 * that the run took the path in question and asserts the property the original bug broke; the
 * checkers (one leader per epoch, committed prefixes agree, acknowledged writes survive, equal
 * tree digests) judge every step as well. The javadoc of each test summarizes the public report.
 */
class HistoricalBugScenariosTest {

    /**
     * The leader logs a proposal that never reaches either follower, and the whole ensemble goes
     * down. Returns the stranded zxid; it is on the old leader's disk only.
     */
    private static long strandOnLeaderOnly(Simulation sim, SimServer leader) {
        for (SimServer follower : followers(sim)) {
            sim.hold(Simulation.message(ZabMessage.Propose.class, leader.id(), follower.id()));
        }
        startWrite(sim, 2, leader);
        sim.runFor(100);
        long stranded = leader.disk.lastZxid();
        assertTrue(stranded > leader.machine().lastZxid() && !leader.disk.hasUnsynced(),
                "the leader logged and synced a proposal nobody else has");
        for (SimServer member : sim.members()) {
            sim.crash(member.id());
        }
        sim.discardHeld();
        return stranded;
    }

    /**
     * A proposal reaches one follower only and is never committed; leader and that follower go down
     * before the rest elect a new leader. Returns the stranded zxid, on the holder's disk only.
     */
    private static long strandOnOneFollower(Simulation sim, SimServer leader, SimServer holder, SimServer other) {
        return strandOnOneFollower(sim, leader, holder, other, SimClient.Kind.CREATE);
    }

    private static long strandOnOneFollower(Simulation sim, SimServer leader, SimServer holder, SimServer other,
                                            SimClient.Kind kind) {
        sim.stallDisk(leader.id(), true);
        sim.hold(Simulation.message(ZabMessage.Propose.class, leader.id(), other.id()));
        startWrite(sim, 2, leader, kind);
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

    /**
     * ZOOKEEPER-1154 (report found): leader A logs txn 74 but B and C never receive it; all three
     * crash. B and C elect B, which commits 81. When A returns it has replayed 74 into its tree, and
     * since 74 lay inside B's range of remembered txns B sent a DIFF with 81 instead of first
     * truncating A to 73, so A served a change no one else had. Here the returning member must get
     * TRUNC, drop the entry from its log and not have the node the stranded create made.
     */
    @Test
    void zookeeper1154_memberWithTheHighestZxidAbsentFromElectionIsTruncatedOnReturn() {
        Simulation sim = settledEnsemble(1154);
        SimServer a = sim.leader();
        List<SimServer> others = followers(sim);
        write(sim, a);
        long stranded = strandOnLeaderOnly(sim, a);
        String strandedPath = createdPath(a, stranded);
        for (SimServer member : others) {
            sim.restart(member.id());
        }
        sim.runUntil(s -> s.leader() != null, 10_000);
        write(sim, sim.leader());
        int truncsBefore = sim.deliveredCount(ZabMessage.Trunc.class);
        sim.restart(a.id());
        assertTrue(hasNodeFrom(a, strandedPath, stranded), "the restart replayed the stranded create into the tree");
        sim.runUntil(Simulation::converged, 10_000);
        assertTrue(sim.deliveredCount(ZabMessage.Trunc.class) > truncsBefore, "the returning member got TRUNC");
        assertFalse(a.disk.contains(stranded));
        assertFalse(hasNodeFrom(a, strandedPath, stranded), "the stranded create is gone from the tree");
        assertSameTrees(sim);
        recoverAndCheck(sim);
    }

    /**
     * ZOOKEEPER-2832 (report found): with A, B up, leader B logs setData 21 and A goes down before
     * logging it; B goes down. A and C then form epoch 3 without writes and go down. B and C form
     * epoch 4 with C leading; B still has the uncommitted 21, and the sync failed to truncate it,
     * so B's tree differed from C's. Here the same three restarts happen (with a CAS setData as the
     * stranded write): C leads epoch 4, B must lose the setData from log and tree, and both must
     * end with equal trees.
     */
    @Test
    void zookeeper2832_uncommittedTxnOnAFollowerIsTruncatedByALeaderWithALowerLastZxid() {
        Simulation sim = settledEnsemble(2832);
        SimServer c = followers(sim).get(1);
        for (SimServer member : sim.members()) {
            sim.crash(member.id());
        }
        // step 1: A and B; B leads and logs a setData that A never logs
        SimServer b = followers(sim).get(0);
        SimServer a = sim.members().stream().filter(m -> m != b && m != c).findFirst().orElseThrow();
        sim.restart(a.id());
        sim.restart(b.id());
        sim.runUntil(s -> s.leader() != null && a.isServing() && b.isServing(), 10_000);
        SimServer stepOneLeader = sim.leader();
        SimServer stepOneFollower = stepOneLeader == a ? b : a;
        sim.hold(Simulation.message(ZabMessage.Propose.class, stepOneLeader.id(), stepOneFollower.id()));
        sim.client(2).connectTo(stepOneLeader.id());
        assertTrue(sim.clientWrite(2, SimClient.Kind.CAS));
        sim.runFor(100);
        long stranded = stepOneLeader.disk.lastZxid();
        assertTrue(stranded > stepOneLeader.machine().lastZxid(), "the setData is logged on the leader only");
        sim.crash(stepOneFollower.id());
        sim.crash(stepOneLeader.id());
        sim.discardHeld();
        // step 2: the other of A and B with C, an epoch without writes
        SimServer holder = stepOneLeader;
        SimServer idle = stepOneFollower;
        sim.restart(idle.id());
        sim.restart(c.id());
        sim.runUntil(s -> idle.isServing() && c.isServing(), 10_000);
        sim.runFor(200);
        sim.crash(idle.id());
        sim.crash(c.id());
        // step 3: the holder of the uncommitted setData with C
        int snapsBefore = sim.deliveredCount(ZabMessage.Snap.class);
        sim.restart(holder.id());
        sim.restart(c.id());
        sim.runUntil(s -> holder.isServing() && c.isServing(), 10_000);
        sim.runUntil(s -> s.leader() != null && holder.machine().lastZxid() == s.leader().machine().lastZxid()
                && c.machine().lastZxid() == s.leader().machine().lastZxid(), 10_000);
        assertEquals(c, sim.leader(), "C, with the newer epoch, leads");
        assertTrue(sim.deliveredCount(ZabMessage.Snap.class) > snapsBefore,
                "C holds no entry of B's last epoch to truncate to, so B is rebuilt from a snapshot");
        assertFalse(applied(holder, stranded), "the uncommitted setData is gone from B's state");
        assertFalse(holder.disk.contains(stranded), "and from its log");
        assertEquals(holder.machine().digest(), c.machine().digest());
        assertEquals(holder.machine().readRegister(), c.machine().readRegister());
        recoverAndCheck(sim);
    }

    /**
     * Not from a report: the 2832 fix rests on TRUNC being durable before the member goes on. A
     * member crashes in the very step it acted on the TRUNC, with its disk losing whatever was
     * not synced; the dropped entry must not come back.
     */
    @Test
    void crashRightAfterTruncDoesNotResurrectDroppedEntries() {
        Simulation sim = settledEnsemble(28321);
        SimServer leader = sim.leader();
        SimServer holder = followers(sim).get(0);
        SimServer other = followers(sim).get(1);
        long stranded = strandOnOneFollower(sim, leader, holder, other);
        AtomicBoolean truncSeen = new AtomicBoolean();
        sim.interceptOnce(p -> p.message() instanceof ZabMessage.Trunc && p.to() == holder.id(), s -> {
            truncSeen.set(true);
            return Simulation.Verdict.DELIVER;
        });
        sim.restart(holder.id());
        sim.runUntil(s -> truncSeen.get(), 10_000);
        assertFalse(holder.disk.contains(stranded), "the member acted on the TRUNC in the step it arrived");
        sim.crash(holder.id(), true);
        assertFalse(holder.disk.contains(stranded), "and the truncation was durable: the crash kept it");
        sim.restart(holder.id());
        sim.runUntil(Simulation::converged, 10_000);
        assertFalse(holder.disk.contains(stranded));
        recoverAndCheck(sim);
    }

    /**
     * ZOOKEEPER-3642 (report found): the leader crashes after sending a learner a SNAP but before
     * NEWLEADER; the learner had loaded the snapshot in memory without saving it. The next leader
     * synced it with a DIFF from the snapshot's zxid, which writes no snapshot either, so a restart
     * of the learner silently lost everything up to that zxid. Here the learner restarts after the
     * same sequence and must find all of it on its own disk.
     */
    @Test
    void zookeeper3642_leaderCrashBetweenSnapAndNewLeaderLosesNothing() {
        Simulation sim = settledEnsemble(3642);
        SimServer leader = sim.leader();
        SimServer lagging = followers(sim).get(0);
        sim.crash(lagging.id());
        long lastWrite = 0;
        for (int i = 0; i < 5; i++) {
            lastWrite = write(sim, leader);
        }
        sim.runFor(50);
        lastWrite = purgeLogStart(sim, leader);
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
        sim.crash(lagging.id());
        sim.restart(lagging.id());
        assertTrue(applied(lagging, lastWrite), "after a restart the member still has what the snapshot gave it");
        recoverAndCheck(sim);
    }

    /**
     * ZOOKEEPER-3911 (report found): during a DIFF sync followers logged the leader's proposals only
     * after UPTODATE, yet acknowledged NEWLEADER before it, so the leader could start serving those
     * txns as committed while no follower had them on disk. If the quorum then crashed and the
     * followers formed a quorum without the old leader, the txns were gone. Here the old leader's
     * unreplicated txn is DIFFed to both followers, everyone crashes on UPTODATE, and the followers
     * alone must still have it.
     */
    @Test
    void zookeeper3911_diffTxnsAreDurableOnFollowersWhenTheLeaderServesThem() {
        Simulation sim = settledEnsemble(3911);
        SimServer leader = sim.leader();
        List<SimServer> others = followers(sim);
        long stranded = strandOnLeaderOnly(sim, leader);
        for (SimServer follower : others) {
            sim.setSlowDisk(follower.id(), 150);
        }
        AtomicBoolean upToDateSent = new AtomicBoolean();
        sim.interceptOnce(p -> p.message() instanceof ZabMessage.UpToDate, s -> {
            upToDateSent.set(true);
            assertTrue(applied(leader, stranded), "the leader serves the DIFFed txn as committed");
            for (SimServer member : s.members()) {
                s.crash(member.id(), false);
            }
            return Simulation.Verdict.DROP;
        });
        sim.restart(leader.id());
        for (SimServer follower : others) {
            sim.restart(follower.id());
        }
        sim.runUntil(s -> upToDateSent.get(), 10_000);
        for (SimServer follower : others) {
            sim.setSlowDisk(follower.id(), 0);
            sim.restart(follower.id());
        }
        sim.runUntil(s -> s.leader() != null && others.stream().allMatch(m -> applied(m, stranded)), 10_000);
        recoverAndCheck(sim);
    }

    /**
     * ZOOKEEPER-4646 (report found): even after the 3911 fix, a follower wrote the synced txns
     * asynchronously, so it could reply ACK of NEWLEADER and crash before they reached its disk;
     * the leader, counting that ack, treated them as committed and then crashed too, and the new
     * quorum lost them. Here the follower crashes (losing every unsynced write) the moment its ack
     * leaves, the leader crashes after serving, and the txn must survive on the follower.
     */
    @Test
    void zookeeper4646_followerCrashRightAfterAckingNewLeaderKeepsTheSyncedTxns() {
        Simulation sim = settledEnsemble(4646);
        SimServer leader = sim.leader();
        SimServer follower = followers(sim).get(0);
        SimServer other = followers(sim).get(1);
        long stranded = strandOnLeaderOnly(sim, leader);
        sim.setSlowDisk(follower.id(), 200);
        AtomicBoolean durableWhenAcked = new AtomicBoolean();
        sim.interceptOnce(p -> p.message() instanceof ZabMessage.AckNewLeader && p.from() == follower.id(), s -> {
            durableWhenAcked.set(follower.disk.contains(stranded) && !follower.disk.hasUnsynced());
            s.crash(follower.id(), false);
            return Simulation.Verdict.DELIVER;
        });
        sim.restart(leader.id());
        sim.restart(follower.id());
        sim.runUntil(s -> !follower.isUp() && applied(leader, stranded), 10_000);
        assertTrue(durableWhenAcked.get(), "NEWLEADER was acknowledged before the synced txn was on disk");
        sim.crash(leader.id());
        sim.setSlowDisk(follower.id(), 0);
        sim.restart(follower.id());
        sim.restart(other.id());
        sim.runUntil(s -> s.leader() != null && applied(follower, stranded) && applied(other, stranded), 10_000);
        recoverAndCheck(sim);
    }

    /**
     * ZOOKEEPER-4785 (report found): proposals a follower received during a DIFF sync, after
     * NEWLEADER and before UPTODATE, were acknowledged but, by a race in the learner's sync loop,
     * not all of them were written before the follower was bounced; with the leader gone too, a
     * committed txn was lost. Here a write commits with the syncing follower's ack while its
     * UPTODATE is held; follower and leader then crash and the write must survive.
     */
    @Test
    void zookeeper4785_proposalsDuringSyncAreDurableBeforeTheyAreAcked() {
        Simulation sim = settledEnsemble(4785);
        SimServer leader = sim.leader();
        SimServer syncing = followers(sim).get(0);
        SimServer other = followers(sim).get(1);
        sim.crash(syncing.id());
        write(sim, leader);
        sim.crash(other.id());
        sim.setSlowDisk(syncing.id(), 150);
        sim.hold(Simulation.message(ZabMessage.UpToDate.class, leader.id(), syncing.id()));
        sim.restart(syncing.id());
        sim.runUntil(s -> !s.heldPackets().isEmpty(), 10_000);
        long zxid = write(sim, leader);
        sim.releaseHeld();
        sim.runFor(20);
        sim.crash(syncing.id(), false);
        sim.crash(leader.id());
        sim.setSlowDisk(syncing.id(), 0);
        sim.restart(syncing.id());
        assertTrue(syncing.disk.contains(zxid), "the follower logged the proposal it acknowledged during sync");
        sim.restart(other.id());
        sim.runUntil(s -> s.leader() != null && applied(other, zxid) && applied(syncing, zxid), 10_000);
        recoverAndCheck(sim);
    }

    /**
     * ZOOKEEPER-2355 (report found): a follower's connection failed while it was reading a
     * proposal (a closeSession), and it rejoined believing it was further along than it was, so the
     * sync skipped that txn and the session's ephemeral node was never deleted there. Here the
     * closeSession proposal to one follower is lost with its connection while the other follower's
     * ack commits it; the follower rejoins the same leader and must delete the ephemeral too.
     */
    @Test
    void zookeeper2355_followerThatLostACloseSessionMidReadDeletesTheEphemeralAfterSync() {
        Simulation sim = settledEnsemble(2355);
        SimServer leader = sim.leader();
        SimServer victim = followers(sim).get(0);
        long sessionId = sim.client(2).sessionId();
        String ephemeral = SimRequest.ephemeralPath(sessionId);
        long created = write(sim, leader, 2, SimClient.Kind.EPHEMERAL);
        sim.runUntil(s -> applied(victim, created), 5_000);
        assertTrue(victim.machine().hasNode(ephemeral));
        sim.interceptOnce(Simulation.message(ZabMessage.Propose.class, leader.id(), victim.id()), s -> {
            s.network().breakConnection(leader.id(), victim.id());
            return Simulation.Verdict.DROP;
        });
        long closed = write(sim, leader, 2, SimClient.Kind.CLOSE);
        assertTrue(ScenarioSupport.loggedTxn(leader, closed).body() instanceof TxnBody.CloseSession);
        assertFalse(victim.disk.contains(closed), "the closeSession never reached the follower");
        assertFalse(leader.machine().hasNode(ephemeral));
        sim.runUntil(s -> victim.isServing() && applied(victim, closed), 10_000);
        assertFalse(victim.machine().hasNode(ephemeral), "the follower deleted the closed session's ephemeral");
        sim.runUntil(Simulation::converged, 10_000);
        assertSameTrees(sim);
        recoverAndCheck(sim);
    }

    /**
     * ZOOKEEPER-5010 (found only as the mailing-list copy of the report): after a leader crash some
     * followers held, in memory, an ephemeral create that never became part of the new leader's
     * committed history; the new leader synced them with DIFF, which never removed it, and the
     * node stayed on those followers for good. Here a follower restarts with such an uncommitted
     * ephemeral create replayed into its tree, and the sync must rebuild the tree without it.
     */
    @Test
    void zookeeper5010_uncommittedEphemeralCreateInAFollowersTreeIsRemovedBySync() {
        Simulation sim = settledEnsemble(5010);
        SimServer leader = sim.leader();
        SimServer holder = followers(sim).get(0);
        SimServer other = followers(sim).get(1);
        String ephemeral = SimRequest.ephemeralPath(sim.client(2).sessionId());
        long stranded = strandOnOneFollower(sim, leader, holder, other, SimClient.Kind.EPHEMERAL);
        assertEquals(ephemeral, createdPath(holder, stranded));
        sim.restart(holder.id());
        assertTrue(hasNodeFrom(holder, ephemeral, stranded), "a restart replays the uncommitted create into the tree");
        sim.runUntil(Simulation::converged, 10_000);
        assertFalse(applied(holder, stranded), "the sync rebuilt the state without it");
        assertFalse(holder.machine().hasNode(ephemeral), "the ephemeral is gone from the follower");
        assertSameTrees(sim);
        recoverAndCheck(sim);
    }
}
