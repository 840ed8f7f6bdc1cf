package dev.warden.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SerialExecutorTest {
    @Test
    void runsTasksOneAtATimeInSubmissionOrderOnAPool() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            SerialExecutor serial = new SerialExecutor(pool);
            int tasks = 20_000;
            List<Integer> order = new ArrayList<>();
            AtomicInteger running = new AtomicInteger();
            AtomicInteger maxRunning = new AtomicInteger();
            CountDownLatch done = new CountDownLatch(tasks);
            for (int i = 0; i < tasks; i++) {
                int index = i;
                serial.execute(() -> {
                    maxRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
                    order.add(index);
                    running.decrementAndGet();
                    done.countDown();
                });
            }
            assertTrue(done.await(10, TimeUnit.SECONDS));
            assertEquals(1, maxRunning.get());
            for (int i = 0; i < tasks; i++) {
                assertEquals(i, order.get(i));
            }
        } finally {
            pool.shutdown();
        }
    }

    @Test
    void aThrowingTaskDoesNotStopLaterOnes() throws Exception {
        ExecutorService single = Executors.newSingleThreadExecutor();
        try {
            SerialExecutor serial = new SerialExecutor(single);
            CountDownLatch later = new CountDownLatch(1);
            serial.execute(() -> {
                throw new IllegalStateException("boom");
            });
            serial.execute(later::countDown);
            assertTrue(later.await(5, TimeUnit.SECONDS));
        } finally {
            single.shutdown();
        }
    }

    @Test
    void runsInlineOnceTheDelegateIsShutDown() {
        ExecutorService single = Executors.newSingleThreadExecutor();
        single.shutdown();
        SerialExecutor serial = new SerialExecutor(single);
        AtomicInteger ran = new AtomicInteger();
        serial.execute(ran::incrementAndGet);
        assertEquals(1, ran.get());
    }
}
