package dev.warden.server.quorum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.consensus.Role;
import dev.warden.server.net.FourLetterWordClient;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three voters with observerMasterPort and one observer: the observer syncs from and follows a
 * follower (its figures and mntr name it, and that follower counts it), serves what is written at
 * the leader, takes writes of its own, and goes on after its master restarts.
 */
class ObserverMasterEnsembleTest {
    private static final long TIMEOUT_MS = 30_000;
    private static final long OBSERVER = 4;
    private static final List<Long> VOTERS = List.of(1L, 2L, 3L);

    @TempDir
    Path dir;

    private TestEnsemble ensemble;

    @AfterEach
    void tearDown() {
        if (ensemble != null) {
            ensemble.close();
        }
    }

    @Test
    void anObserverFollowsAFollowerServesAndWritesAndSurvivesItsMastersRestart() throws Exception {
        ensemble = TestEnsemble.startedWithObserverMasters(dir, VOTERS, List.of(OBSERVER), TIMEOUT_MS);
        assertEquals(Role.OBSERVING, ensemble.server(OBSERVER).member().role());

        long master = awaitObserverMasterOtherThanTheLeader();
        long leader = leaderId();
        assertTrue(VOTERS.contains(master));
        await(() -> ensemble.server(master).member().status().observersServed().orElse(0) == 1,
                "member " + master + " counts the observer it serves");
        String observerMntr = FourLetterWordClient.ask(ensemble.connectString(OBSERVER), "mntr");
        assertTrue(observerMntr.contains("zk_observer_master_id\t" + master), observerMntr);
        String masterMntr = FourLetterWordClient.ask(ensemble.connectString(master), "mntr");
        assertTrue(masterMntr.contains("zk_synced_observers\t1"), masterMntr);

        createAll(leader, "/at-leader", 20);
        awaitAll(OBSERVER, "/at-leader", 20);
        createAll(OBSERVER, "/at-observer", 10);
        awaitAll(leader, "/at-observer", 10);

        // its master goes away: the observer finds another (a follower, or the leader) and goes on
        ensemble.stop(master);
        await(() -> observerServesThrough() != master, "the observer leaves its stopped master");
        long leaderNow = leaderId();
        createAll(leaderNow, "/master-down", 10);
        awaitAll(OBSERVER, "/master-down", 10);
        createAll(OBSERVER, "/observer-while-master-down", 5);

        ensemble.start(master);
        ensemble.awaitServing(master, TIMEOUT_MS);
        ensemble.awaitServing(OBSERVER, TIMEOUT_MS);
        createAll(leaderId(), "/master-back", 10);
        for (long id : List.of(1L, 2L, 3L, OBSERVER)) {
            awaitAll(id, "/at-leader", 20);
            awaitAll(id, "/at-observer", 10);
            awaitAll(id, "/master-down", 10);
            awaitAll(id, "/observer-while-master-down", 5);
            awaitAll(id, "/master-back", 10);
        }
        await(() -> VOTERS.stream().allMatch(id -> ensemble.server(id).member().lastAppliedZxid()
                        == ensemble.server(OBSERVER).member().lastAppliedZxid()),
                "every member applied the same history");
    }

    private long leaderId() throws InterruptedException {
        long[] found = new long[1];
        await(() -> {
            for (long id : VOTERS) {
                var server = ensemble.server(id);
                if (server != null && server.member().isServing() && server.member().role() == Role.LEADING) {
                    found[0] = id;
                    return true;
                }
            }
            return false;
        }, "a serving leader");
        return found[0];
    }

    /** The member the serving observer syncs from (its figures, published every 100 ms), or -1. */
    private long observerServesThrough() {
        var server = ensemble.server(OBSERVER);
        OptionalLong master = server.member().status().observerMasterId();
        return server.member().isServing() && master.isPresent() ? master.getAsLong() : -1;
    }

    private long awaitObserverMasterOtherThanTheLeader() throws InterruptedException {
        long[] master = new long[1];
        await(() -> {
            master[0] = observerServesThrough();
            return master[0] > 0 && master[0] != ensemble.server(OBSERVER).member().leaderId();
        }, "the observer follows a follower");
        assertNotEquals(ensemble.server(OBSERVER).member().leaderId(), master[0]);
        return master[0];
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.currentTimeMillis() + TIMEOUT_MS;
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("not within " + TIMEOUT_MS + " ms: " + what);
            }
            Thread.sleep(20);
        }
    }

    private void createAll(long through, String prefix, int count) throws Exception {
        NumberedNodes.createAll(ensemble.connectString(through), prefix, count);
    }

    private void awaitAll(long id, String prefix, int count) throws Exception {
        NumberedNodes.awaitAll(id, ensemble.connectString(id), prefix, count);
    }
}
