package dev.warden.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.consensus.Configuration;
import dev.warden.protocol.ReconfigRequest;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Configuration changes scripted on the simulated ensemble (the production member loop, core and
 * prep): three voters and two spares outside the configuration, which follow as learners until a
 * change adds them. Several replay reconfiguration bugs reported against ZooKeeper; each test's
 * javadoc says which and what the public report describes.
 */
class ReconfigScenariosTest {
    /** Three voters (1-3) and two spares (4, 5), one client per member, settled. */
    private static Simulation withSpares(long seed) {
        Simulation sim = new Simulation(seed, 3, 0, 2, 5, "");
        ScenarioSupport.warmUp(sim);
        return sim;
    }

    /** Asks the leader for {@code request} and waits until every member that is up has it committed. */
    private static Configuration change(Simulation sim, ReconfigRequest request) {
        long before = sim.currentConfiguration().version();
        assertTrue(sim.reconfigure(request), "no leader to ask");
        sim.runUntil(s -> s.currentConfiguration().version() > before, 10_000);
        Configuration now = sim.currentConfiguration();
        sim.runUntil(s -> s.members().stream().filter(SimServer::isUp)
                .allMatch(m -> m.peer().configurations().committed().version() >= now.version()), 10_000);
        return now;
    }

    private static ReconfigRequest add(long id, boolean observer) {
        return new ReconfigRequest(SimConfigurations.memberLine(id, observer), null, null, -1);
    }

    private static ReconfigRequest remove(long id) {
        return new ReconfigRequest(null, Long.toString(id), null, -1);
    }

    @Test
    void sparesJoinAndTheNewVotersCount() {
        Simulation sim = withSpares(1);
        Configuration five = change(sim, new ReconfigRequest(SimConfigurations.memberLine(4, false) + ","
                + SimConfigurations.memberLine(5, false), null, null, -1));
        assertEquals(Set.of(1L, 2L, 3L, 4L, 5L), five.quorum().voters());
        ScenarioSupport.write(sim, sim.member(4));
        ScenarioSupport.recoverAndCheck(sim);
    }

    /**
     * ZOOKEEPER-3829 (3.5/3.6): an ensemble grown from 1,2,3 to 1,2,3,4 and then restarted one
     * member at a time ended with a leader that could not commit anything: the members came back
     * with different ideas of the member list. Here the change goes through the log, each member
     * records it when committed, and every restart comes back with the four members: after each
     * one, a write commits, and the members that are up all hold the same configuration.
     */
    @Test
    void zookeeper3829RollingRestartsAfterGrowingKeepOneMemberList() {
        Simulation sim = withSpares(2);
        Configuration four = change(sim, add(4, false));
        for (long id = 1; id <= 4; id++) {
            sim.crash(id);
            sim.runFor(200);
            sim.restart(id);
            sim.runUntil(Simulation::converged, 20_000);
            ScenarioSupport.write(sim, sim.leader());
            for (SimServer member : sim.members()) {
                if (four.quorum().isMember(member.id())) {
                    assertEquals(four, member.disk.committedConfiguration(), "member " + member.id() + " recorded");
                }
            }
        }
        assertEquals(four.version(), sim.currentConfiguration().version());
        ScenarioSupport.recoverAndCheck(sim);
    }

    /**
     * ZOOKEEPER-2865: a leader that crashed while sending the COMMIT of a reconfiguration left the
     * members with different configuration files, some with the new member list and some with the
     * old. Here the COMMIT reaches one follower only, then the leader crashes: the next leader
     * holds the change (a quorum of the old and of the new configuration logged it) and commits
     * it, so every member ends up recording the same configuration.
     */
    @Test
    void zookeeper2865ALeaderCrashingWhileCommittingAChangeLeavesOneConfiguration() {
        Simulation sim = withSpares(3);
        SimServer leader = sim.leader();
        List<SimServer> followers = ScenarioSupport.followers(sim).stream()
                .filter(m -> m.id() <= 3).toList();
        long lucky = followers.get(0).id();
        long unlucky = followers.get(1).id();
        sim.dropMessages(p -> p.from() == leader.id() && p.to() != lucky
                && p.message() instanceof dev.warden.consensus.ZabMessage.Commit);
        long before = sim.currentConfiguration().version();
        assertTrue(sim.reconfigure(add(4, false)));
        sim.runUntil(s -> leader.peer().configurations().committed().version() > before, 10_000);
        Configuration next = leader.peer().configurations().committed();
        sim.crash(leader.id());
        sim.heal();
        assertEquals(before, sim.member(unlucky).peer().configurations().committed().version(),
                "the unlucky follower has the change logged, not known committed");
        sim.runUntil(s -> s.leader() != null, 20_000);
        sim.restart(leader.id());
        sim.runUntil(s -> s.converged() && s.members().stream().filter(m -> next.quorum().isMember(m.id()))
                .allMatch(m -> next.equals(m.disk.committedConfiguration())), 20_000);
        ScenarioSupport.recoverAndCheck(sim);
    }

    /**
     * Removing the leader: once the change commits it steps down and the members of the new
     * configuration elect one of themselves; the old leader, cut off from them right after,
     * cannot lead again (it is no voter of the configuration it knows committed), and follows as
     * a learner once the network heals. No acknowledged write is lost (the checkers).
     */
    @Test
    void aRemovedLeaderCutOffRightAfterTheChangeNeverLeadsAgain() {
        Simulation sim = withSpares(4);
        SimServer old = sim.leader();
        Configuration without = change(sim, remove(old.id()));
        assertFalse(without.quorum().isMember(old.id()));
        Set<Long> others = new java.util.HashSet<>();
        sim.members().forEach(m -> others.add(m.id()));
        others.remove(old.id());
        sim.partition(Set.of(old.id()), others);
        sim.runUntil(s -> s.leader() != null && s.leader() != old, 20_000);
        sim.runFor(3_000);
        assertFalse(old.isServingLeader(), "the removed leader leads again");
        ScenarioSupport.write(sim, sim.leader());
        sim.heal();
        sim.runUntil(Simulation::converged, 20_000);
        assertTrue(old.isServing() && !old.isServingLeader(), "it follows as a learner");
        ScenarioSupport.recoverAndCheck(sim);
    }

    /**
     * Replacing every member one change at a time (1,2,3 to 3,4,5 through {1,2,3,4} minus 1, then
     * plus 5 minus 2), with a write after each change and a crash of the leader in the middle:
     * the old members, removed, cannot form a quorum of anything the new members know.
     */
    @Test
    void membersAreReplacedOneAtATimeUnderACrash() {
        Simulation sim = withSpares(5);
        change(sim, new ReconfigRequest(SimConfigurations.memberLine(4, false), "1", null, -1));
        ScenarioSupport.write(sim, sim.leader());
        sim.crash(sim.leader().id());
        sim.runUntil(s -> s.leader() != null, 20_000);
        sim.restartAllDown();
        sim.runUntil(Simulation::converged, 20_000);
        Configuration last = change(sim, new ReconfigRequest(SimConfigurations.memberLine(5, false), "2", null, -1));
        assertEquals(Set.of(3L, 4L, 5L), last.quorum().voters());
        sim.crash(1);
        sim.crash(2);
        ScenarioSupport.write(sim, sim.leader());
        ScenarioSupport.recoverAndCheck(sim);
    }

    /**
     * A member made an observer, then down while a second change made it a voter again, comes
     * back with the configuration it recorded, in which it is an observer; with another voter
     * down, the leader cannot lead without it. It joins the leader (who knows the newer
     * configuration) as a follower, or is counted as one if it joined as an observer, learns its
     * role at NEWLEADER, and the ensemble serves again. Found by random runs (seeds 5024, 5096):
     * the member waited as an observer for the leader to be established, and the leader for it.
     */
    @Test
    void aMemberWithAStaleConfigurationIsCountedWhenTheLeaderNeedsIt() {
        Simulation sim = withSpares(6);
        long leader = sim.leader().id();
        List<SimServer> followers = ScenarioSupport.followers(sim).stream().filter(m -> m.id() <= 3).toList();
        long stale = followers.get(0).id();
        long other = followers.get(1).id();
        change(sim, add(stale, true));
        sim.crash(stale);
        Configuration again = change(sim, add(stale, false));
        assertTrue(again.quorum().isVoter(stale));
        sim.crash(other);
        sim.crash(leader);
        sim.restart(leader);
        sim.restart(stale);
        assertTrue(sim.member(stale).disk.committedConfiguration().quorum().isObserver(stale),
                "it comes back with the configuration in which it observes");
        sim.runUntil(s -> s.leader() != null && s.member(stale).isServing(), 20_000);
        ScenarioSupport.write(sim, sim.leader());
        sim.restartAllDown();
        ScenarioSupport.recoverAndCheck(sim);
    }
}
