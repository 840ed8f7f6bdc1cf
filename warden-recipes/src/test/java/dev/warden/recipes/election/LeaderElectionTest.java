package dev.warden.recipes.election;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.client.WardenClient;
import dev.warden.recipes.testing.OverlapDetector;
import dev.warden.recipes.testing.RecipeTarget.ProxiedClient;
import dev.warden.recipes.testing.RecipeTarget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LeaderElectionTest {
    private static final int PARTICIPANTS = 5;
    private RecipeTarget target;

    @BeforeAll
    void start() {
        target = RecipeTarget.start();
    }

    @AfterAll
    void stop() {
        target.close();
    }

    /** Records leadership changes and checks that two participants never lead at once. */
    static class Tracker implements LeadershipListener {
        final OverlapDetector overlap;
        final List<String> events = new CopyOnWriteArrayList<>();
        final AtomicLong suspendedAtNs = new AtomicLong(Long.MAX_VALUE);
        volatile boolean leading;

        Tracker(OverlapDetector overlap) {
            this.overlap = overlap;
        }

        @Override
        public void elected() {
            overlap.enterExclusive();
            leading = true;
            events.add("elected");
        }

        @Override
        public void notLeader(String reason) {
            if (leading) {
                leading = false;
                overlap.exitExclusive();
            }
            events.add("notLeader");
        }

        @Override
        public void suspended() {
            suspendedAtNs.compareAndSet(Long.MAX_VALUE, System.nanoTime());
            // A suspended leader must act as if it had lost leadership.
            if (leading) {
                leading = false;
                overlap.exitExclusive();
            }
            events.add("suspended");
        }
    }

    @Test
    void leadershipPassesAroundOneAtATimeAndWakesOneSuccessor() throws Exception {
        String dir = RecipeTarget.freshPath("election");
        OverlapDetector overlap = new OverlapDetector();
        List<LeaderElection> elections = new ArrayList<>();
        for (int i = 0; i < PARTICIPANTS; i++) {
            LeaderElection election = new LeaderElection(target.client(), dir, "p" + i, new Tracker(overlap));
            election.start();
            elections.add(election);
            if (i == 0) {
                assertTrue(election.awaitLeadership(Duration.ofSeconds(5)));
            }
        }
        WardenClient observer = target.client();
        Thread.sleep(300);
        int handovers = 3 * PARTICIPANTS;
        for (int round = 0; round < handovers; round++) {
            LeaderElection leader = awaitSingleLeader(elections);
            String id = "p" + elections.indexOf(leader);
            assertEquals(Optional.of(id), LeaderElection.currentLeader(observer, dir).get(5, TimeUnit.SECONDS));
            leader.relinquish().get(5, TimeUnit.SECONDS);
        }
        awaitSingleLeader(elections);
        long wakeups = elections.stream().mapToLong(LeaderElection::wakeupCount).sum();
        assertEquals(handovers, wakeups, "each hand-over wakes exactly one successor");
        assertEquals(0, overlap.violations(), "two leaders at once");
        elections.forEach(LeaderElection::close);
        assertEquals(Optional.empty(), LeaderElection.currentLeader(observer, dir).get(5, TimeUnit.SECONDS));
    }

    @Test
    void expiredLeaderHearsSuspendedBeforeASuccessorIsElected() throws Exception {
        String dir = RecipeTarget.freshPath("election-expiry");
        OverlapDetector overlap = new OverlapDetector();
        ProxiedClient cut = target.proxiedClient(Duration.ofSeconds(6));
        Tracker oldTracker = new Tracker(overlap);
        LeaderElection old = new LeaderElection(cut.client(), dir, "old", oldTracker);
        old.start();
        assertTrue(old.awaitLeadership(Duration.ofSeconds(5)));
        AtomicLong electedAtNs = new AtomicLong();
        LeaderElection successor = new LeaderElection(target.client(), dir, "new", new Tracker(overlap) {
            @Override
            public void elected() {
                electedAtNs.set(System.nanoTime());
                super.elected();
            }
        });
        successor.start();

        long pausedAt = System.nanoTime();
        cut.proxy().pause();
        assertTrue(successor.awaitLeadership(Duration.ofSeconds(20)));
        // awaitLeadership may return before the elected() callback has run on the client's executor
        long callbackDeadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (electedAtNs.get() == 0 && System.nanoTime() < callbackDeadlineNs) {
            Thread.sleep(10);
        }
        assertTrue(oldTracker.suspendedAtNs.get() < electedAtNs.get(), "old leader told first: " + oldTracker.events
                + "; after the pause: suspended at " + msSince(pausedAt, oldTracker.suspendedAtNs.get())
                + " ms, successor elected at " + msSince(pausedAt, electedAtNs.get()) + " ms");
        long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (old.isLeader() && System.nanoTime() < deadlineNs) {
            Thread.sleep(10);
        }
        assertFalse(old.isLeader());
        assertEquals(0, overlap.violations());
        assertEquals(Optional.of("new"), LeaderElection.currentLeader(target.client(), dir).get(5, TimeUnit.SECONDS));
        successor.close();
    }

    private static long msSince(long startNs, long atNs) {
        return atNs == Long.MAX_VALUE ? -1 : TimeUnit.NANOSECONDS.toMillis(atNs - startNs);
    }

    @Test
    void leaderWhoseNodeIsDeletedStepsDownAndQueuesAgain() throws Exception {
        String dir = RecipeTarget.freshPath("election-deleted");
        OverlapDetector overlap = new OverlapDetector();
        Tracker firstTracker = new Tracker(overlap);
        LeaderElection first = new LeaderElection(target.client(), dir, "first", firstTracker);
        // A node deleted by a third party tells both participants at once, on different connections,
        // so nothing orders the deposed leader's notLeader() before the successor's elected():
        // the overlap detector cannot span the two here (the README says so).
        LeaderElection second = new LeaderElection(target.client(), dir, "second", new Tracker(new OverlapDetector()));
        first.start();
        assertTrue(first.awaitLeadership(Duration.ofSeconds(5)));
        second.start();
        WardenClient admin = target.client();
        List<String> members = admin.blocking(Duration.ofSeconds(5)).getChildren(dir);
        String leaderNode = members.stream().filter(name -> "first".equals(new String(admin.blocking(Duration.ofSeconds(5))
                .getData(dir + "/" + name).data(), java.nio.charset.StandardCharsets.UTF_8))).findFirst().orElseThrow();
        admin.blocking(Duration.ofSeconds(5)).delete(dir + "/" + leaderNode);

        assertTrue(second.awaitLeadership(Duration.ofSeconds(5)));
        // Both learn of the deletion from watch events; the deposed one's callback may run a moment later.
        long toldDeadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (firstTracker.events.size() < 2 && System.nanoTime() < toldDeadlineNs) {
            Thread.sleep(5);
        }
        assertEquals(List.of("elected", "notLeader"), firstTracker.events);
        long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (admin.blocking(Duration.ofSeconds(5)).getChildren(dir).size() < 2 && System.nanoTime() < deadlineNs) {
            Thread.sleep(10);
        }
        assertEquals(2, admin.blocking(Duration.ofSeconds(5)).getChildren(dir).size(), "the deposed leader queued again");
        second.close();
        assertTrue(first.awaitLeadership(Duration.ofSeconds(5)));
        assertEquals(0, overlap.violations());
        first.close();
    }

    @Test
    void badArgumentsAreRejected() {
        WardenClient client = target.client();
        LeadershipListener quiet = new Tracker(new OverlapDetector());
        assertThrows(IllegalArgumentException.class,
                () -> new LeaderElection(client, "/e", "", quiet));
        assertThrows(IllegalArgumentException.class,
                () -> new LeaderElection(client, "e", "id", quiet));
        LeaderElection election = new LeaderElection(client, RecipeTarget.freshPath("args"), "id", quiet);
        election.start();
        assertThrows(IllegalStateException.class, election::start);
        election.close();
    }

    private static LeaderElection awaitSingleLeader(List<LeaderElection> elections) throws InterruptedException {
        long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (System.nanoTime() < deadlineNs) {
            List<LeaderElection> leaders = elections.stream().filter(LeaderElection::isLeader).toList();
            assertTrue(leaders.size() <= 1, "two leaders");
            if (leaders.size() == 1) {
                return leaders.get(0);
            }
            Thread.sleep(5);
        }
        throw new AssertionError("no leader");
    }
}
