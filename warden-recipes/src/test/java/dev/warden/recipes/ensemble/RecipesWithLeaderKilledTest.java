package dev.warden.recipes.ensemble;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.warden.client.WardenClient;
import dev.warden.recipes.barrier.DoubleBarrier;
import dev.warden.recipes.election.LeaderElection;
import dev.warden.recipes.election.LeadershipListener;
import dev.warden.recipes.lock.SequentialLock;
import dev.warden.recipes.queue.DistributedQueue;
import dev.warden.recipes.queue.QueueItem;
import dev.warden.recipes.testing.OverlapDetector;
import dev.warden.recipes.testing.RecipeTarget;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Recipes against a three-member in-JVM ensemble whose leader is stopped half-way. Every client
 * names all three members, so the ones on the lost leader fail over with their sessions.
 */
class RecipesWithLeaderKilledTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final long POLL_MS = 10;

    @TempDir
    Path dataDir;
    private RecipeTarget ensemble;
    private ExecutorService pool;

    @BeforeEach
    void start() {
        ensemble = RecipeTarget.startEnsemble(dataDir);
        pool = Executors.newCachedThreadPool();
    }

    @AfterEach
    void stop() {
        if (pool != null) {
            pool.shutdownNow();
        }
        if (ensemble != null) {
            ensemble.close();
        }
    }

    /** Waits until {@code progress} reaches {@code target}, then stops the ensemble's leader. */
    private long killLeaderOnce(AtomicInteger progress, int target) throws InterruptedException {
        long deadlineNs = System.nanoTime() + WAIT.toNanos();
        while (progress.get() < target) {
            assertTrue(System.nanoTime() < deadlineNs, "no progress to " + target + ": " + progress.get());
            Thread.sleep(POLL_MS);
        }
        return ensemble.killLeader();
    }

    @Test
    void sequentialLockStaysExclusiveAndCountsExactlyAcrossALeaderKill() throws Exception {
        int clients = 10;
        int rounds = 50;
        String dir = RecipeTarget.freshPath("ensemble-lock");
        OverlapDetector overlap = new OverlapDetector();
        AtomicInteger done = new AtomicInteger();
        // read and written apart, not incremented atomically: only the lock keeps increments whole
        AtomicInteger counter = new AtomicInteger();
        List<CompletableFuture<Void>> workers = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            SequentialLock lock = new SequentialLock(ensemble.client(), dir);
            workers.add(CompletableFuture.runAsync(() -> {
                for (int round = 0; round < rounds; round++) {
                    assertTrue(lock.lock(WAIT), "lock not granted within " + WAIT);
                    overlap.enterExclusive();
                    int seen = counter.get();
                    Thread.yield();
                    counter.set(seen + 1);
                    overlap.exitExclusive();
                    lock.unlock();
                    done.incrementAndGet();
                }
            }, pool));
        }
        long killed = killLeaderOnce(done, clients * rounds / 4);
        CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).get(2 * WAIT.toSeconds(), TimeUnit.SECONDS);
        assertEquals(0, overlap.violations(), "two holders at once");
        assertEquals(clients * rounds, counter.get(), "lost increments; leader " + killed + " was stopped");
    }

    @Test
    void electionKeepsOneLeaderAndEveryoneGetsATurnAcrossALeaderKill() throws Exception {
        int participants = 5;
        String dir = RecipeTarget.freshPath("ensemble-election");
        OverlapDetector overlap = new OverlapDetector();
        List<LeaderElection> elections = new ArrayList<>();
        Set<String> everElected = ConcurrentHashMap.newKeySet();
        for (int i = 0; i < participants; i++) {
            String id = "p" + i;
            LeaderElection election = new LeaderElection(ensemble.client(), dir, id,
                    new ExclusiveLeadership(overlap, () -> everElected.add(id)));
            election.start();
            elections.add(election);
        }
        awaitSingleLeader(elections).relinquish().get(WAIT.toSeconds(), TimeUnit.SECONDS);
        ensemble.killLeader();
        WardenClient observer = ensemble.client();
        for (int handover = 0; handover < participants; handover++) {
            LeaderElection leader = awaitSingleLeader(elections);
            String id = "p" + elections.indexOf(leader);
            // the observer may be connected to a member that has not yet applied the hand-over
            // the new leader saw: reads are not linearizable, so catch it up first
            observer.sync(dir).get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertEquals(Optional.of(id), LeaderElection.currentLeader(observer, dir).get(WAIT.toSeconds(),
                    TimeUnit.SECONDS), "the leader node names the participant that leads");
            leader.relinquish().get(WAIT.toSeconds(), TimeUnit.SECONDS);
        }
        awaitSingleLeader(elections);
        // isLeader() can turn true before the elected() callback has run on the client's executor
        long callbackDeadlineNs = System.nanoTime() + WAIT.toNanos();
        while (everElected.size() < participants && System.nanoTime() < callbackDeadlineNs) {
            Thread.sleep(POLL_MS);
        }
        assertEquals(0, overlap.violations(), "two leaders at once");
        assertEquals(participants, everElected.size(), "elected: " + everElected);
        elections.forEach(LeaderElection::close);
    }

    @Test
    void queueConsumersGetEveryItemExactlyOnceAcrossALeaderKill() throws Exception {
        int items = 200;
        int consumers = 3;
        String path = RecipeTarget.freshPath("ensemble-queue");
        WardenClient producer = ensemble.client();
        DistributedQueue queue = new DistributedQueue(producer, path);
        // offered before the kill: an offer whose reply is lost may be applied, and retrying it
        // would add a second item; the test is about the consumers, so the offers are settled
        List<CompletableFuture<String>> offers = new ArrayList<>();
        for (int i = 0; i < items; i++) {
            offers.add(queue.offer(("job-" + i).getBytes(StandardCharsets.UTF_8)));
        }
        CompletableFuture.allOf(offers.toArray(CompletableFuture[]::new)).get(WAIT.toSeconds(), TimeUnit.SECONDS);
        Set<String> completed = ConcurrentHashMap.newKeySet();
        AtomicInteger completions = new AtomicInteger();
        List<Throwable> consumerFailures = new CopyOnWriteArrayList<>();
        List<CompletableFuture<Void>> running = new ArrayList<>();
        for (int c = 0; c < consumers; c++) {
            DistributedQueue consumer = new DistributedQueue(ensemble.client(), path);
            running.add(CompletableFuture.runAsync(() -> {
                while (completions.get() < items) {
                    try {
                        Optional<QueueItem> item = consumer.poll(Duration.ofMillis(500));
                        if (item.isPresent()) {
                            item.get().complete().join();
                            completed.add(new String(item.get().data(), StandardCharsets.UTF_8));
                            completions.incrementAndGet();
                        }
                    } catch (RuntimeException e) {
                        consumerFailures.add(e); // a consumer goes on after a failed call, as a service would
                    }
                }
            }, pool));
        }
        long killed = killLeaderOnce(completions, items / 4);
        try {
            CompletableFuture.allOf(running.toArray(CompletableFuture[]::new)).get(2 * WAIT.toSeconds(),
                    TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            fail("consumers stuck at " + completions.get() + " of " + items + " completions after leader " + killed
                    + " was stopped; not completed: " + IntStream.range(0, items).mapToObj(i -> "job-" + i)
                    .filter(job -> !completed.contains(job)).toList() + "; consumer failures: " + consumerFailures
                    + "; left in the queue: " + producer.blocking(WAIT).await(queue.size()));
        }
        assertEquals(items, completions.get(), "completions (a duplicate delivery counts twice)");
        assertEquals(IntStream.range(0, items).mapToObj(i -> "job-" + i).collect(Collectors.toSet()),
                completed, "every item completed once; leader " + killed + " was stopped");
        assertEquals(0, producer.blocking(WAIT).await(queue.size()));
    }

    @Test
    void doubleBarrierRoundsCompleteWhenTheLeaderDiesInsideOne() throws Exception {
        int members = 5;
        String path = RecipeTarget.freshPath("ensemble-double-barrier");
        List<WardenClient> clients = new ArrayList<>();
        for (int i = 0; i < members; i++) {
            clients.add(ensemble.client());
        }
        long stopped = -1;
        for (int round = 1; round <= 3; round++) {
            String roundPath = path + "/round-" + round;
            List<DoubleBarrier> barriers = new ArrayList<>();
            for (int i = 0; i < members; i++) {
                barriers.add(new DoubleBarrier(clients.get(i), roundPath, "m" + i, members));
            }
            List<CompletableFuture<Void>> entered = new ArrayList<>();
            for (int i = 0; i < members - 1; i++) {
                entered.add(barriers.get(i).enter());
            }
            if (round == 2) {
                stopped = ensemble.killLeader();
            }
            Thread.sleep(200);
            assertTrue(entered.stream().noneMatch(CompletableFuture::isDone), "round " + round + ": entered early "
                    + outcomes(entered));
            entered.add(barriers.get(members - 1).enter());
            awaitAll(entered, "round " + round + " enter");
            List<CompletableFuture<Void>> left = new ArrayList<>();
            for (int i = 0; i < members - 1; i++) {
                left.add(barriers.get(i).leave());
            }
            if (round == 3) {
                ensemble.restartMember(stopped); // a second loss needs the first member back for a quorum
                ensemble.killLeader();
            }
            Thread.sleep(200);
            assertFalse(left.stream().anyMatch(CompletableFuture::isDone), "round " + round + ": left early "
                    + outcomes(left));
            left.add(barriers.get(members - 1).leave());
            awaitAll(left, "round " + round + " leave");
        }
    }

    private static List<String> outcomes(List<CompletableFuture<Void>> futures) {
        return futures.stream().map(f -> !f.isDone() ? "waiting" : f.isCompletedExceptionally()
                ? "failed: " + f.handle((ok, e) -> String.valueOf(e)).join() : "done").toList();
    }

    /** Waits for every future; a timeout names the step and the ones still waiting. */
    private void awaitAll(List<CompletableFuture<Void>> futures, String step) throws Exception {
        try {
            CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).get(WAIT.toSeconds(), TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            List<Integer> waiting = IntStream.range(0, futures.size()).filter(i -> !futures.get(i).isDone()).boxed()
                    .toList();
            throw new AssertionError(step + ": members " + waiting + " still wait after " + WAIT + "; "
                    + ensemble.describe(), e);
        }
    }

    private static LeaderElection awaitSingleLeader(List<LeaderElection> elections) throws InterruptedException {
        long deadlineNs = System.nanoTime() + WAIT.toNanos();
        while (true) {
            List<LeaderElection> leaders = elections.stream().filter(LeaderElection::isLeader).toList();
            if (leaders.size() == 1) {
                return leaders.get(0);
            }
            assertTrue(leaders.size() < 2, "two participants lead at once");
            assertTrue(System.nanoTime() < deadlineNs, "no leader within " + WAIT);
            Thread.sleep(POLL_MS);
        }
    }

    /** Feeds leadership into an overlap detector; a suspended leader counts as having stepped down. */
    private static final class ExclusiveLeadership implements LeadershipListener {
        private final OverlapDetector overlap;
        private final Runnable onElected;
        private boolean leading;

        ExclusiveLeadership(OverlapDetector overlap, Runnable onElected) {
            this.overlap = overlap;
            this.onElected = onElected;
        }

        @Override
        public synchronized void elected() {
            overlap.enterExclusive();
            leading = true;
            onElected.run();
        }

        @Override
        public synchronized void notLeader(String reason) {
            stepDown();
        }

        @Override
        public synchronized void suspended() {
            stepDown();
        }

        private void stepDown() {
            if (leading) {
                leading = false;
                overlap.exitExclusive();
            }
        }
    }
}
