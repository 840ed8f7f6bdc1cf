package dev.warden.server.quorum;

import dev.warden.consensus.SnapshotData;
import dev.warden.consensus.SnapshotSource;
import dev.warden.server.threads.ServerThreads;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;

/**
 * The leader's snapshots for SNAP syncs, taken on a thread of their own and handed back to the
 * driver thread between its events ({@link SnapshotSource#takeInBackground}). Taken on the driver
 * thread, a snapshot of a large tree stopped every write for as long as writing it took (about
 * 300 ms for a million znodes); the snapshot is fuzzy either way (the apply thread goes on while
 * it is written) and the leader sends the entries logged since it began after it. A snapshot
 * that fails is rethrown on the driver thread, which stops the member as before.
 */
final class BackgroundSnapshots implements SnapshotSource, AutoCloseable {
    private final SnapshotSource source;
    private final ExecutorService thread;
    /** Runs work on the driver thread between its events; bound once the driver exists, before it runs. */
    private volatile Consumer<Runnable> onDriverThread;

    BackgroundSnapshots(long myId, SnapshotSource source) {
        this.source = source;
        this.thread = ServerThreads.single("warden-" + myId + "-sync-snapshots");
    }

    /** Where taken snapshots go: work for the driver thread (the driver is made after its core, which uses this). */
    void deliverThrough(Consumer<Runnable> onDriverThread) {
        this.onDriverThread = onDriverThread;
    }

    @Override
    public SnapshotData take() {
        return source.take();
    }

    @Override
    public long estimatedBytes() {
        return source.estimatedBytes();
    }

    @Override
    public void takeInBackground(Consumer<SnapshotData> taken) {
        try {
            thread.execute(() -> {
                Consumer<Runnable> onDriverThread = this.onDriverThread;
                SnapshotData snapshot;
                try {
                    snapshot = source.take();
                } catch (RuntimeException | Error failure) {
                    onDriverThread.accept(() -> {
                        throw failure;
                    });
                    return;
                }
                onDriverThread.accept(() -> taken.accept(snapshot));
            });
        } catch (RejectedExecutionException stopping) {
            // the member is stopping: nobody waits for the snapshot any more
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
