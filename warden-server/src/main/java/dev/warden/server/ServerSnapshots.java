package dev.warden.server;

import dev.warden.state.common.Clock;
import dev.warden.state.pipeline.StateMachine;
import dev.warden.storage.SnapshotStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Writes a server's snapshots: on its own snapshot thread, one at a time, and exact ones for the AdminServer. */
final class ServerSnapshots {
    /** The server's logger: operators' log settings name WardenServer for these lines. */
    private static final Logger log = LoggerFactory.getLogger(WardenServer.class);
    /** How long close waits for a snapshot being written (a large tree's takes seconds). */
    private static final long SNAPSHOT_FINISH_WAIT_SECONDS = 120;

    /** Its own thread: a snapshot of a large tree must not delay session expiry ticks. */
    private final ExecutorService snapshotter;
    private final SnapshotStore snapshots;
    private final StateMachine stateMachine;
    private final Clock clock;
    private final AtomicBoolean snapshotRunning = new AtomicBoolean();

    ServerSnapshots(ExecutorService snapshotter, SnapshotStore snapshots, StateMachine stateMachine, Clock clock) {
        this.snapshotter = snapshotter;
        this.snapshots = snapshots;
        this.stateMachine = stateMachine;
        this.clock = clock;
    }

    /** A snapshot for the pipeline's snapCount, on the snapshot thread; skipped while one is being written. */
    void takeSnapshot() {
        if (!snapshotRunning.compareAndSet(false, true)) {
            return;
        }
        try {
            long started = clock.monotonicMs();
            var file = ServerState.writeSnapshot(snapshots, stateMachine);
            log.info("snapshot {} written in {} ms", file.getFileName(), clock.monotonicMs() - started);
        } catch (IOException | RuntimeException e) {
            log.error("snapshot failed; the log still holds every transaction", e);
        } finally {
            snapshotRunning.set(false);
        }
    }

    /**
     * Writes a snapshot now and returns its file once it is durable. It runs on the snapshot
     * thread, so it never overlaps a scheduled snapshot. For tools and benchmarks.
     */
    Path snapshotNow() throws IOException {
        var written = snapshotter.submit(() -> ServerState.writeSnapshot(snapshots, stateMachine));
        try {
            return written.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for the snapshot", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException("snapshot failed", e.getCause());
        }
    }

    /**
     * A snapshot of the whole state as of one zxid, written into {@code dir} while no transaction
     * is applied (the apply thread waits for the tree's lock), so it is exact without a log: the
     * AdminServer's snapshot command streams it as a backup.
     */
    Path writeConsistentSnapshot(Path dir) throws IOException {
        SnapshotStore store = new SnapshotStore(dir);
        var lock = stateMachine.tree().readLock();
        lock.lock();
        try {
            return ServerState.writeSnapshot(store, stateMachine);
        } finally {
            lock.unlock();
        }
    }

    /**
     * A snapshot still being written finishes before the server lets its directory go, so the
     * next server or tool on it never finds a snapshot appearing under its feet.
     */
    void awaitSnapshotWriter() {
        try {
            if (!snapshotter.awaitTermination(SNAPSHOT_FINISH_WAIT_SECONDS, TimeUnit.SECONDS)) {
                log.warn("a snapshot was still being written {} s after the server stopped; leaving it",
                        SNAPSHOT_FINISH_WAIT_SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
