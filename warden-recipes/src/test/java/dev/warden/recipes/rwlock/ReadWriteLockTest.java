package dev.warden.recipes.rwlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.client.WardenClient;
import dev.warden.recipes.lock.DistributedLock;
import dev.warden.recipes.testing.OverlapDetector;
import dev.warden.recipes.testing.RecipeTarget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReadWriteLockTest {
    private static final int WRITERS = 6;
    private static final int READERS = 10;
    private static final int ROUNDS = 60;
    private RecipeTarget target;

    /** Guarded by the write lock only; readers check it does not move under them. */
    private volatile int counter;

    @BeforeAll
    void start() {
        target = RecipeTarget.start();
    }

    @AfterAll
    void stop() {
        target.close();
    }

    @Test
    void readersShareAndExcludeWriters() {
        String dir = RecipeTarget.freshPath("rw");
        ReadWriteLock first = new ReadWriteLock(target.client(), dir);
        ReadWriteLock second = new ReadWriteLock(target.client(), dir);
        ReadWriteLock writer = new ReadWriteLock(target.client(), dir);
        assertTrue(first.readLock().tryLock());
        assertTrue(second.readLock().tryLock(), "two readers at once");
        assertFalse(writer.writeLock().tryLock(), "no writer while reading");
        first.readLock().unlock();
        second.readLock().unlock();
        assertTrue(writer.writeLock().tryLock());
        assertFalse(first.readLock().tryLock(), "no reader while writing");
        assertFalse(second.writeLock().tryLock(), "no second writer");
        writer.writeLock().unlock();
    }

    @Test
    void aQueuedWriterIsNotOvertakenByLaterReaders() throws Exception {
        String dir = RecipeTarget.freshPath("rw-order");
        ReadWriteLock reader = new ReadWriteLock(target.client(), dir);
        ReadWriteLock writer = new ReadWriteLock(target.client(), dir);
        ReadWriteLock lateReader = new ReadWriteLock(target.client(), dir);
        assertTrue(reader.readLock().tryLock());
        CompletableFuture<Boolean> write = writer.writeLock().lockAsync(Duration.ofSeconds(10));
        Thread.sleep(200);
        assertFalse(lateReader.readLock().tryLock(), "a reader arriving after a waiting writer waits");
        reader.readLock().unlock();
        assertTrue(write.get(5, TimeUnit.SECONDS));
        writer.writeLock().unlock();
    }

    @Test
    void writersWakeOnePerRelease() throws Exception {
        String dir = RecipeTarget.freshPath("rw-herd");
        List<DistributedLock> writers = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            writers.add(new ReadWriteLock(target.client(), dir).writeLock());
        }
        assertTrue(writers.get(0).tryLock());
        List<CompletableFuture<Boolean>> turns = new ArrayList<>();
        for (int i = 1; i < writers.size(); i++) {
            turns.add(writers.get(i).lockAsync(Duration.ofSeconds(10)));
            Thread.sleep(50);
        }
        Thread.sleep(300);
        for (int i = 0; i < writers.size() - 1; i++) {
            writers.get(i).unlock();
            assertTrue(turns.get(i).get(5, TimeUnit.SECONDS));
        }
        writers.get(writers.size() - 1).unlock();
        Thread.sleep(200);
        long wakeups = writers.stream().mapToLong(DistributedLock::wakeupCount).sum();
        assertEquals(writers.size() - 1, wakeups, "one wake-up per release");
    }

    @Test
    void mixedContentionNeverLetsAWriterOverlapAnyone() throws Exception {
        String dir = RecipeTarget.freshPath("rw-contention");
        OverlapDetector overlap = new OverlapDetector();
        counter = 0;
        ExecutorService pool = Executors.newFixedThreadPool(WRITERS + READERS);
        long startNs = System.nanoTime();
        try {
            List<CompletableFuture<Void>> workers = new ArrayList<>();
            for (int i = 0; i < WRITERS + READERS; i++) {
                boolean writes = i < WRITERS;
                WardenClient client = target.client();
                DistributedLock lock = writes ? new ReadWriteLock(client, dir).writeLock() : new ReadWriteLock(client, dir).readLock();
                workers.add(CompletableFuture.runAsync(() -> {
                    for (int round = 0; round < ROUNDS; round++) {
                        assertTrue(lock.lock(Duration.ofSeconds(60)));
                        if (writes) {
                            overlap.enterExclusive();
                            int seen = counter;
                            Thread.yield();
                            counter = seen + 1;
                            overlap.exitExclusive();
                        } else {
                            overlap.enterShared();
                            int seen = counter;
                            sleepMs(1);
                            assertEquals(seen, counter, "a write happened under a reader");
                            overlap.exitShared();
                        }
                        lock.unlock();
                    }
                }, pool));
            }
            CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        System.out.printf("rw-contention: %d writers + %d readers x %d rounds in %d ms, max %d readers inside%n",
                WRITERS, READERS, ROUNDS, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs), overlap.maxShared());
        assertEquals(0, overlap.violations());
        assertEquals(WRITERS * ROUNDS, counter);
    }

    private static void sleepMs(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
