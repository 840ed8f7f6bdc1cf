package dev.warden.recipes.atomic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.client.WardenClient;
import dev.warden.recipes.testing.RecipeTarget.ProxiedClient;
import dev.warden.recipes.testing.RecipeTarget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DistributedAtomicLongTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private RecipeTarget target;

    @BeforeAll
    void start() {
        target = RecipeTarget.start();
    }

    @AfterAll
    void stop() {
        target.close();
    }

    @Test
    void contendedIncrementsFromManyClientsAddUpExactly() throws Exception {
        String path = RecipeTarget.freshPath("counter") + "/hits";
        int clients = 8;
        int each = 50;
        List<CompletableFuture<Void>> workers = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            DistributedAtomicLong counter = new DistributedAtomicLong(target.client(), path);
            workers.add(CompletableFuture.runAsync(() -> {
                for (int i = 0; i < each; i++) {
                    AtomicResult<Long> result = counter.increment().join();
                    assertTrue(result.succeeded());
                    assertEquals(result.preValue() + 1, result.postValue());
                }
            }));
        }
        CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        assertEquals(clients * each, new DistributedAtomicLong(target.client(), path).get(WAIT));
    }

    @Test
    void compareAndSetSucceedsOnlyFromTheExpectedValue() throws Exception {
        DistributedAtomicLong counter = new DistributedAtomicLong(target.client(), RecipeTarget.freshPath("cas") + "/n");
        assertEquals(0, counter.get(WAIT));
        assertTrue(counter.compareAndSet(0, 7).get(10, TimeUnit.SECONDS).succeeded());
        AtomicResult<Long> refused = counter.compareAndSet(0, 9).get(10, TimeUnit.SECONDS);
        assertFalse(refused.succeeded());
        assertEquals(7L, refused.postValue());
        assertEquals(-3L, counter.add(-10).get(10, TimeUnit.SECONDS).postValue());
        assertEquals(42L, counter.set(42).get(10, TimeUnit.SECONDS).postValue());
    }

    @Test
    void aByteValueCompareAndSetsAndReadsBack() throws Exception {
        DistributedAtomicValue value = new DistributedAtomicValue(target.client(), RecipeTarget.freshPath("value") + "/v");
        assertTrue(value.get(WAIT).isEmpty());
        assertTrue(value.compareAndSet(null, "a".getBytes()).get(10, TimeUnit.SECONDS).succeeded());
        assertFalse(value.compareAndSet(null, "b".getBytes()).get(10, TimeUnit.SECONDS).succeeded());
        assertTrue(value.compareAndSet("a".getBytes(), "b".getBytes()).get(10, TimeUnit.SECONDS).succeeded());
        assertArrayEquals("b".getBytes(), value.get(WAIT).orElseThrow());
    }

    /**
     * The reply to an applied write is lost (replies are held back from the moment the write is
     * computed, after its read); the client re-sends the versioned write, which now reports
     * BADVERSION. The update must recognise its own write and count once.
     */
    @Test
    void anIncrementWhoseReplyIsLostCountsOnce() throws Exception {
        String path = RecipeTarget.freshPath("lost-reply") + "/n";
        ProxiedClient proxied = target.proxiedClient(Duration.ofSeconds(10));
        DistributedAtomicValue value = new DistributedAtomicValue(proxied.client(), path);
        DistributedAtomicLong observer = new DistributedAtomicLong(target.client(), path);
        assertTrue(observer.set(1).get(10, TimeUnit.SECONDS).succeeded());

        java.util.concurrent.atomic.AtomicInteger computed = new java.util.concurrent.atomic.AtomicInteger();
        CompletableFuture<AtomicResult<byte[]>> increment = value.update(current -> {
            if (computed.getAndIncrement() == 0) {
                proxied.proxy().pauseReplies();
            }
            return DistributedAtomicLong.encode(DistributedAtomicLong.decode(current) + 1);
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (observer.get(WAIT) != 2) {
            assertTrue(System.nanoTime() < deadline, "the increment never reached the server");
            Thread.sleep(10);
        }
        proxied.proxy().drop();
        proxied.proxy().resume();
        AtomicResult<byte[]> result = increment.get(20, TimeUnit.SECONDS);
        assertTrue(result.succeeded());
        assertEquals(2L, DistributedAtomicLong.decode(result.postValue()));
        assertEquals(1, computed.get(), "recognised as applied, not computed and written again");
        assertEquals(2L, observer.get(WAIT), "the increment was applied once");
    }

    @Test
    void aForeignEightByteValueIsReadAsTheCounter() throws Exception {
        String path = RecipeTarget.freshPath("foreign") + "-n";
        WardenClient client = target.client();
        client.create(path, DistributedAtomicLong.encode(5), dev.warden.protocol.CreateMode.PERSISTENT).join();
        DistributedAtomicLong counter = new DistributedAtomicLong(client, path);
        assertEquals(5, counter.get(WAIT));
        assertEquals(6L, counter.increment().get(10, TimeUnit.SECONDS).postValue());
    }
}
