package dev.warden.recipes.chubby;

import dev.warden.client.WardenClient;
import dev.warden.client.WardenException;
import dev.warden.recipes.lock.LockListener;
import dev.warden.recipes.lock.SequentialLock;
import dev.warden.recipes.support.RecipeCalls;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * A Chubby-style lock: Acquire / TryAcquire / Release on the herd-free lock, plus
 * {@link #getSequencer()} so a resource server can check, with a {@link SequencerChecker},
 * that a request comes from the current holder and not from one whose lock has since passed on
 * (for example a holder that was paused past its session timeout and does not know it yet).
 * Not reentrant in spirit: acquire once, release once.
 */
public final class ChubbyLock implements AutoCloseable {
    private final WardenClient client;
    private final SequentialLock lock;

    public ChubbyLock(WardenClient client, String lockDir) {
        this(client, lockDir, null);
    }

    public ChubbyLock(WardenClient client, String lockDir, LockListener listener) {
        this.client = client;
        this.lock = new SequentialLock(client, lockDir, listener);
    }

    /** Acquire: waits at most {@code timeout} (null: no limit); false if it ran out. */
    public CompletableFuture<Boolean> acquireAsync(Duration timeout) {
        checkNotHeld();
        return lock.lockAsync(timeout);
    }

    public boolean acquire(Duration timeout) {
        checkNotHeld();
        return lock.lock(timeout);
    }

    /** TryAcquire: takes the lock only if nobody holds or awaits it. */
    public CompletableFuture<Boolean> tryAcquireAsync() {
        checkNotHeld();
        return lock.tryLockAsync();
    }

    public boolean tryAcquire() {
        checkNotHeld();
        return lock.tryLock();
    }

    public CompletableFuture<Void> releaseAsync() {
        return lock.unlockAsync();
    }

    public void release() {
        lock.unlock();
    }

    public boolean isHeld() {
        return lock.isHeld();
    }

    /** GetSequencer: the held lock node and its current version, read from the servers. */
    public CompletableFuture<Sequencer> getSequencerAsync() {
        String path = lock.nodePath();
        if (path == null || !lock.isHeld()) {
            return CompletableFuture.failedFuture(new IllegalStateException("lock not held"));
        }
        return client.exists(path).thenApply(stat -> new Sequencer(path,
                stat.orElseThrow(() -> new WardenException.NoNodeException(path, -1)).version()));
    }

    public Sequencer getSequencer(Duration timeout) {
        return RecipeCalls.await(getSequencerAsync(), timeout);
    }

    private void checkNotHeld() {
        if (lock.holdCount() > 0) {
            throw new IllegalStateException("already acquired; release first");
        }
    }

    @Override
    public void close() {
        lock.close();
    }
}
