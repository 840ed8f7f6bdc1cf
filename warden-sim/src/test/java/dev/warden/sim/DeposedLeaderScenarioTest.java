package dev.warden.sim;

import static dev.warden.sim.ScenarioSupport.applied;
import static dev.warden.sim.ScenarioSupport.recoverAndCheck;
import static dev.warden.sim.ScenarioSupport.settledEnsemble;
import static dev.warden.sim.ScenarioSupport.startWrite;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.consensus.Entry;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A deposed leader whose clock runs on: the leader is cut off from the others by a silent
 * partition (packets vanish, no connection resets, as when a switch or firewall drops them) and
 * goes on ticking, while the others elect a new leader. The sim runs tick 100 ms, syncLimit 5.
 */
class DeposedLeaderScenarioTest {
    private static final long TICK_MS = 100;
    private static final long SYNC_LIMIT_MS = 5 * TICK_MS;

    /** What happened after the cut, step by step. */
    private record Timeline(long stepDownAtMs, long newLeaderAtMs, long bothLeadingMs) { }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void aLeaderCutOffStopsServingWithinSyncLimitAndNothingItProposedCutOffCommits(long seed) {
        Simulation sim = settledEnsemble(seed);
        // each seed cuts at another point of the leader's heartbeat cycle (every tick / 2)
        sim.runFor(seed * Simulation.STEP_MS);
        SimServer old = sim.leader();
        long loggedAtCut = old.disk.lastZxid();
        long cutAtMs = sim.nowMs();
        sim.hold(p -> (p.from() == old.id()) != (p.to() == old.id()));
        // clients of the old leader go on writing through it: it proposes what it can never commit
        startWrite(sim, 2, old);
        sim.runFor(2 * TICK_MS);
        startWrite(sim, 3, old);

        Timeline timeline = watch(sim, old, cutAtMs);

        long stoppedAfterMs = timeline.stepDownAtMs() - cutAtMs;
        System.out.println("seed " + seed + ": the old leader stopped serving " + stoppedAfterMs
                + " ms after the cut, a new leader served after " + (timeline.newLeaderAtMs() - cutAtMs)
                + " ms, both led for " + timeline.bothLeadingMs() + " ms");
        assertTrue(stoppedAfterMs <= SYNC_LIMIT_MS + Simulation.STEP_MS,
                "the old leader served " + stoppedAfterMs + " ms after losing contact");
        assertTrue(timeline.newLeaderAtMs() > 0, "the others elected a leader while the old one was cut off");
        // Both sides time out on the same silence; the new leader needs an election and a sync on
        // top, so they overlap at most by the heartbeat skew, well within a tick.
        assertTrue(timeline.bothLeadingMs() <= TICK_MS,
                "two serving leaders for " + timeline.bothLeadingMs() + " ms");

        List<Long> proposedCutOff = old.disk.read(loggedAtCut, Long.MAX_VALUE, Integer.MAX_VALUE).stream()
                .map(Entry::zxid).toList();
        assertFalse(proposedCutOff.isEmpty(), "the old leader proposed its clients' writes while cut off");
        sim.discardHeld();
        for (SimServer other : sim.members()) {
            if (other != old) {
                // the partition ends the way TCP ends it: the connections reset
                sim.network().breakConnection(old.id(), other.id());
            }
        }
        recoverAndCheck(sim);
        for (long zxid : proposedCutOff) {
            for (SimServer member : sim.members()) {
                assertFalse(applied(member, zxid), "member " + member.id() + " applied 0x" + Long.toHexString(zxid)
                        + ", which the old leader proposed while cut off");
            }
        }
    }

    /** Steps until the old leader stopped serving and another serves, or 10 × syncLimit passed. */
    private static Timeline watch(Simulation sim, SimServer old, long cutAtMs) {
        long stepDownAtMs = -1;
        long newLeaderAtMs = -1;
        long bothLeadingMs = 0;
        while (sim.nowMs() < cutAtMs + 10 * SYNC_LIMIT_MS && (stepDownAtMs < 0 || newLeaderAtMs < 0)) {
            sim.step();
            boolean oldLeads = old.isServingLeader();
            boolean otherLeads = sim.members().stream().anyMatch(m -> m != old && m.isServingLeader());
            if (!oldLeads && stepDownAtMs < 0) {
                stepDownAtMs = sim.nowMs();
            }
            if (otherLeads && newLeaderAtMs < 0) {
                newLeaderAtMs = sim.nowMs();
            }
            if (oldLeads && otherLeads) {
                bothLeadingMs += Simulation.STEP_MS;
            }
        }
        return new Timeline(stepDownAtMs, newLeaderAtMs, bothLeadingMs);
    }
}
