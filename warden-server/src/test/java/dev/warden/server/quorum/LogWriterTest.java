package dev.warden.server.quorum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.consensus.Entry;
import dev.warden.server.pipeline.Pipeline;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The log writer writes an idle batch on the submitter's thread only when nothing else is
 * written or queued, the submitter allows it and the disk was fast; otherwise on its own thread,
 * in order, and a failed write stops it either way.
 */
class LogWriterTest {
    private final List<String> writtenOn = Collections.synchronizedList(new ArrayList<>());
    private final AtomicLong writeNanos = new AtomicLong();
    private final AtomicBoolean allowed = new AtomicBoolean(true);

    private LogWriter writer(LogWriter.Persist persist) {
        return new LogWriter(persist, () -> { }, "test-log", allowed::get);
    }

    private void recordingPersist(List<Entry> entries) {
        writtenOn.add(Thread.currentThread().getName() + " " + entries.size());
        long busyUntil = System.nanoTime() + writeNanos.get();
        while (System.nanoTime() < busyUntil) {
            Thread.onSpinWait();
        }
    }

    private static LogBatch batch(long zxid) {
        return new LogBatch(List.of(new Entry(zxid, new byte[] {1})));
    }

    private static void awaitDone(LogBatch batch) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!batch.isDone() && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertTrue(batch.isDone(), "the batch was written");
    }

    @Test
    void anIdleBatchIsDurableWhenSubmitReturnsAndWrittenOnTheSubmittersThread() {
        try (LogWriter writer = writer(this::recordingPersist)) {
            writer.start();
            assertTrue(writer.writesNextAtOnce());
            LogBatch batch = batch(1);
            writer.submit(batch);
            assertTrue(batch.isDone());
            assertEquals(null, batch.failure());
            assertEquals(List.of(Thread.currentThread().getName() + " 1"), writtenOn);
        }
    }

    @Test
    void whereTheSubmitterDoesNotAllowItTheBatchGoesToTheWriter() throws Exception {
        allowed.set(false);
        try (LogWriter writer = writer(this::recordingPersist)) {
            writer.start();
            assertFalse(writer.writesNextAtOnce());
            LogBatch batch = batch(1);
            writer.submit(batch);
            awaitDone(batch);
            assertEquals(List.of("test-log 1"), writtenOn);
        }
    }

    @Test
    void afterASlowWriteTheNextGoesToTheWriterUntilOneIsFastAgain() throws Exception {
        writeNanos.set(Pipeline.INLINE_MAX_FLUSH_NS + 1_000_000);
        try (LogWriter writer = writer(this::recordingPersist)) {
            writer.start();
            assertTrue(writer.writesNextAtOnce(), "no write yet: the disk counts as fast");
            writer.submit(batch(1));
            assertFalse(writer.writesNextAtOnce(), "the last write was slow");
            writeNanos.set(0);
            LogBatch second = batch(2);
            writer.submit(second);
            awaitDone(second);
            Thread.sleep(20); // the writer counts the batch written just after marking it durable
            assertTrue(writer.writesNextAtOnce(), "the writer's fast write makes the disk fast again");
            writer.submit(batch(3));
            String me = Thread.currentThread().getName();
            assertEquals(List.of(me + " 1", "test-log 1", me + " 1"), writtenOn);
        }
    }

    @Test
    void whileABatchIsWithTheWriterTheNextQueuesBehindIt() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (LogWriter writer = writer(entries -> {
            recordingPersist(entries);
            started.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        })) {
            writer.start();
            allowed.set(false);
            writer.writesNextAtOnce();
            LogBatch first = batch(1);
            writer.submit(first);
            assertTrue(started.await(5, TimeUnit.SECONDS));
            allowed.set(true);
            assertFalse(writer.writesNextAtOnce(), "a write is running on the writer's thread");
            LogBatch second = batch(2);
            writer.submit(second);
            release.countDown();
            awaitDone(second);
            assertTrue(first.isDone());
            assertEquals(List.of("test-log 1", "test-log 1"), writtenOn);
        }
    }

    @Test
    void aFailedWriteAtOnceFailsTheBatchAndStopsTheWriter() throws Exception {
        try (LogWriter writer = writer(entries -> {
            throw new IOException("disk full");
        })) {
            writer.start();
            assertTrue(writer.writesNextAtOnce());
            LogBatch batch = batch(1);
            writer.submit(batch);
            assertTrue(batch.isDone());
            assertNotNull(batch.failure());
            assertFalse(writer.writesNextAtOnce(), "a stopped writer writes nothing more");
            LogBatch later = batch(2);
            writer.submit(later);
            assertTrue(later.isDone());
            assertNotNull(later.failure(), "a later batch is failed, never durable");
        }
    }
}
