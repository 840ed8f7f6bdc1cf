package dev.warden.server.quorum;

import dev.warden.consensus.Entry;
import dev.warden.server.pipeline.Pipeline;
import dev.warden.server.threads.ServerThreads;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The member's log thread: appends the entries of the batches the {@link MemberDriver} hands
 * it and makes them durable, so the driver goes on receiving, proposing and committing while an
 * fsync runs. Batches queued while one is written go to disk together, with one fsync (group
 * commit), and always in the order they were submitted.
 *
 * <p>After a failed write it stops: that batch and every later one are reported failed, none
 * is ever reported durable, so nothing written after the failure is acknowledged.
 */
final class LogWriter implements MemberLoop.LogDisk, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(LogWriter.class);

    /** Appends the entries and forces them to disk with one fsync; durable on return. */
    @FunctionalInterface
    interface Persist {
        void persist(List<Entry> entries) throws IOException;
    }

    private final Persist persist;
    /** Told, on the writer's thread, that batches became durable or failed. */
    private final Runnable onProgress;
    /** Never full: the member loop keeps at most this many batches in flight. */
    private final ArrayBlockingQueue<LogBatch> queue = new ArrayBlockingQueue<>(MemberLoop.MAX_BATCHES_IN_FLIGHT);
    private final Thread thread;
    private volatile boolean running = true;
    /** False while the submitter has other work waiting, or others wait on its thread: then no write on it. */
    private final BooleanSupplier atOnceAllowed;
    /** Batches submitted and not yet written (or failed); zero when no write runs or waits. */
    private final AtomicInteger unwritten = new AtomicInteger();
    /** How long the last write took, append and fsync. */
    private volatile long lastWriteNs;
    /** What {@link #writesNextAtOnce} answered, for the submit that follows it (submitter's thread). */
    private boolean nextAtOnce;

    /**
     * @param atOnceAllowed asked on the submitter's thread before each batch: a batch submitted
     *                      while no other is written or queued and the last write took under
     *                      {@link Pipeline#INLINE_MAX_FLUSH_NS} is written on the submitter's thread if
     *                      it says yes
     */
    LogWriter(Persist persist, Runnable onProgress, String threadName, BooleanSupplier atOnceAllowed) {
        this.persist = persist;
        this.onProgress = onProgress;
        this.thread = ServerThreads.newThread(threadName, this::run);
        this.atOnceAllowed = atOnceAllowed;
    }

    void start() {
        thread.start();
    }

    @Override
    public boolean writesNextAtOnce() {
        nextAtOnce = running && unwritten.get() == 0 && lastWriteNs < Pipeline.INLINE_MAX_FLUSH_NS
                && atOnceAllowed.getAsBoolean();
        return nextAtOnce;
    }

    /**
     * Queues a batch, or writes it now if {@link #writesNextAtOnce} just said so; it is reported
     * failed at once if the writer has stopped.
     */
    @Override
    public void submit(LogBatch batch) {
        if (!running) {
            batch.failed(new IllegalStateException("the log writer has stopped"));
            return;
        }
        if (nextAtOnce) {
            nextAtOnce = false;
            write(List.of(batch), batch.entries(), Thread.currentThread().getName());
            return;
        }
        unwritten.incrementAndGet();
        queue.add(batch);
    }

    /** Writes the entries of {@code batches} with one fsync and marks them durable, or failed and stops. */
    private void write(List<LogBatch> batches, List<Entry> entries, String where) {
        long startNs = System.nanoTime();
        try {
            persist.persist(entries);
            lastWriteNs = System.nanoTime() - startNs;
            batches.forEach(LogBatch::durable);
        } catch (Exception | Error e) {
            running = false;
            log.error("{}: the log write failed; no later batch is written", where, e);
            batches.forEach(batch -> batch.failed(e));
        }
    }

    private void run() {
        List<LogBatch> batches = new ArrayList<>();
        List<Entry> entries = new ArrayList<>();
        try {
            while (running) {
                LogBatch first = queue.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batches.add(first);
                queue.drainTo(batches);
                for (LogBatch batch : batches) {
                    entries.addAll(batch.entries());
                }
                write(batches, entries, thread.getName());
                unwritten.addAndGet(-batches.size());
                batches.clear();
                entries.clear();
                onProgress.run();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            running = false;
            failQueued();
        }
    }

    private void failQueued() {
        List<LogBatch> left = new ArrayList<>();
        queue.drainTo(left);
        if (!left.isEmpty()) {
            left.forEach(batch -> batch.failed(new IllegalStateException("the log writer stopped before this batch")));
            onProgress.run();
        }
    }

    /** Finishes the write in progress, fails what is still queued and waits for the thread. */
    @Override
    public void close() {
        running = false;
        if (Thread.currentThread() == thread) {
            return;
        }
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        failQueued();
    }
}
