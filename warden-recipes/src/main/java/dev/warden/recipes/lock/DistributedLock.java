package dev.warden.recipes.lock;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * A mutual-exclusion lock shared by processes through Warden. The holder is the lock object:
 * locking it again while held only counts up (reentrancy), and it is released when unlocked as
 * many times. Share one object between threads only if they should act as one holder.
 *
 * <p>Safety rests on the session: the lock node is ephemeral. Watch the {@link LockListener}:
 * on {@link LockState#SUSPENDED} stop using the resource, on {@link LockState#LOST} the hold is
 * over (still call {@code unlock} to balance the count).
 */
public interface DistributedLock extends AutoCloseable {

    /** Takes the lock if nobody else holds or waits for it; never waits. */
    CompletableFuture<Boolean> tryLockAsync();

    /** Waits at most {@code timeout} (null: no limit); false if it ran out (nothing is left behind). */
    CompletableFuture<Boolean> lockAsync(Duration timeout);

    /** Counts one hold down; the last one deletes the lock node. */
    CompletableFuture<Void> unlockAsync();

    /** Blocking {@link #tryLockAsync()}. */
    boolean tryLock();

    /** Blocking {@link #lockAsync(Duration)}; on return false nothing is held or queued. */
    boolean lock(Duration timeout);

    /** Blocking {@link #unlockAsync()}. */
    void unlock();

    /** True while held and not known to be lost. */
    boolean isHeld();

    /** Times this lock has been taken and not yet unlocked by its holder. */
    int holdCount();

    /** The lock node while held, else null. */
    String nodePath();

    /** Watch notifications received while waiting (one per release for a herd-free lock). */
    long wakeupCount();

    /** Releases every hold and stops using the lock. */
    @Override
    void close();
}
