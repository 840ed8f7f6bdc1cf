package dev.warden.sim;

import dev.warden.consensus.Entry;
import dev.warden.server.quorum.LogBatch;
import dev.warden.server.quorum.MemberLoop;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;

/**
 * A simulated member's log writer, in place of the server's log thread: the entries are written
 * to its {@link SimDisk} now and are durable once the fsync finishes, in order. The fsync takes
 * a latency drawn from the seeded random; when that is zero, the disk is not stalled and no
 * earlier fsync is pending, the batch is durable on return, as a server's idle writer does
 * ({@link MemberLoop.LogDisk#writesNextAtOnce}).
 */
final class SimLogWriter implements MemberLoop.LogDisk {
    /** A batch with the writer, and when its fsync finishes. */
    private record Writing(LogBatch batch, long doneAtMs) { }

    private final SimDisk disk;
    private final RandomGenerator random;
    private final LongSupplier nowMs;
    /** Told when batches became durable: the member's next cycle settles them. */
    private final Runnable progress;
    private final Deque<Writing> writing = new ArrayDeque<>();
    /** The fsync latency drawn for the next batch by {@link #writesNextAtOnce}; -1 when none was. */
    private long nextFsyncMs = -1;
    /** Batches whose fsync had to wait for a slow disk. */
    long slowFsyncs;
    /** Maximum extra fsync latency; 0 means fsync completes at once. */
    long slowDiskMaxMs;
    /** Scripted scenarios: batches with the writer never finish their fsync until this is cleared. */
    boolean diskStalled;
    /**
     * True: a batch's fsync finishes at the earliest in the next step, while the member goes on
     * (as on a server, where the log writer is a thread of its own); false: a fast disk whose fsync
     * is done before the member's next cycle.
     */
    boolean pipelined;

    SimLogWriter(SimDisk disk, RandomGenerator random, LongSupplier nowMs, Runnable progress) {
        this.disk = disk;
        this.random = random;
        this.nowMs = nowMs;
        this.progress = progress;
    }

    @Override
    public boolean writesNextAtOnce() {
        nextFsyncMs = fsyncLatencyMs();
        return writesAtOnce(nextFsyncMs);
    }

    @Override
    public void submit(LogBatch batch) {
        for (Entry entry : batch.entries()) {
            disk.append(entry);
        }
        long latencyMs = nextFsyncMs >= 0 ? nextFsyncMs : fsyncLatencyMs();
        nextFsyncMs = -1;
        if (writesAtOnce(latencyMs)) {
            disk.fsync();
            batch.durable();
            progress.run();
            return;
        }
        // a batch's fsync cannot finish before the one ahead of it, nor in the step it was written
        long now = nowMs.getAsLong();
        long previousDoneMs = writing.isEmpty() ? now : writing.peekLast().doneAtMs();
        writing.add(new Writing(batch, Math.max(previousDoneMs, now + Math.max(latencyMs, 1))));
    }

    /** Finishes the fsyncs that are due by now, in order. */
    void finishDue() {
        boolean finished = false;
        while (!writing.isEmpty() && writing.peekFirst().doneAtMs() <= nowMs.getAsLong() && !diskStalled) {
            disk.fsync();
            writing.pollFirst().batch().durable();
            finished = true;
        }
        if (finished) {
            progress.run();
        }
    }

    /** True when no batch waits for its fsync. */
    boolean isIdle() {
        return writing.isEmpty();
    }

    /** The member crashed or restarts: the batches with the writer are forgotten. */
    void clear() {
        writing.clear();
        nextFsyncMs = -1;
    }

    private boolean writesAtOnce(long latencyMs) {
        return !pipelined && latencyMs == 0 && !diskStalled && writing.isEmpty();
    }

    /** How long this fsync takes: up to {@link #slowDiskMaxMs}, drawn from the seeded random. */
    private long fsyncLatencyMs() {
        long latencyMs = slowDiskMaxMs > 0 ? random.nextLong(slowDiskMaxMs + 1) : 0;
        if (latencyMs > 0) {
            slowFsyncs++;
        }
        return latencyMs;
    }
}
