package dev.warden.recipes.semaphore;

import dev.warden.client.WardenClient;
import dev.warden.recipes.lock.DistributedLock;
import dev.warden.recipes.lock.LockListener;
import dev.warden.recipes.lock.SequentialLock;
import dev.warden.recipes.support.Failures;
import dev.warden.recipes.support.RecipeCalls;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Several locks taken as one: all or none. They are taken one after another in a fixed order,
 * and if one cannot be had in time the ones already taken are released before reporting false.
 *
 * <p><b>Deadlock.</b> Two multi-locks that take the same locks in different orders can wait for
 * each other for ever. {@link #of} sorts the lock directories, so every multi-lock built with it
 * takes shared locks in the same order; with the constructor, the caller must keep one order.
 *
 * <p><b>Connection.</b> Each lock reports SUSPENDED / RECONNECTED / LOST to the listener given to
 * {@link #of}; the multi-lock is held only while all of them are.
 */
public final class MultiLock implements AutoCloseable {
    private final List<DistributedLock> locks;
    private int taken;

    /** Locks taken in the given order. */
    public MultiLock(List<DistributedLock> locks) {
        if (locks.isEmpty()) {
            throw new IllegalArgumentException("a multi-lock needs at least one lock");
        }
        this.locks = List.copyOf(locks);
    }

    /** Sequential locks on {@code lockDirs}, taken in sorted order so that multi-locks never deadlock. */
    public static MultiLock of(WardenClient client, List<String> lockDirs, LockListener listener) {
        List<DistributedLock> locks = new ArrayList<>();
        for (String dir : lockDirs.stream().distinct().sorted().toList()) {
            locks.add(new SequentialLock(client, dir, listener));
        }
        return new MultiLock(locks);
    }

    /** All the locks within {@code timeout} (null: no limit), or none and false. */
    public synchronized CompletableFuture<Boolean> lockAsync(Duration timeout) {
        if (taken != 0) {
            throw new IllegalStateException("this multi-lock is held or being taken");
        }
        taken = -1;
        long deadlineNs = timeout == null ? Long.MAX_VALUE : System.nanoTime() + timeout.toNanos();
        return takeFrom(0, deadlineNs).whenComplete((all, failure) -> {
            synchronized (this) {
                taken = failure == null && all ? locks.size() : 0;
            }
        });
    }

    private CompletableFuture<Boolean> takeFrom(int index, long deadlineNs) {
        if (index == locks.size()) {
            return CompletableFuture.completedFuture(true);
        }
        Duration left = deadlineNs == Long.MAX_VALUE ? null : Duration.ofNanos(Math.max(0, deadlineNs - System.nanoTime()));
        return locks.get(index).lockAsync(left).handle((got, failure) -> {
            if (failure == null && got) {
                return takeFrom(index + 1, deadlineNs);
            }
            // Give back the ones taken before this, newest first, then report.
            return releaseBelow(index).handle((ok, releaseFailure) -> {
                if (failure != null) {
                    throw new java.util.concurrent.CompletionException(Failures.cause(failure));
                }
                return false;
            });
        }).thenCompose(next -> next);
    }

    private CompletableFuture<Void> releaseBelow(int count) {
        CompletableFuture<Void> chain = CompletableFuture.completedFuture(null);
        for (int i = count - 1; i >= 0; i--) {
            DistributedLock lock = locks.get(i);
            chain = chain.thenCompose(ignored -> lock.unlockAsync());
        }
        return chain;
    }

    public boolean lock(Duration timeout) {
        return RecipeCalls.await(lockAsync(timeout), timeout.plusSeconds(30));
    }

    /** Releases every lock, the last taken first. */
    public synchronized CompletableFuture<Void> unlockAsync() {
        if (taken <= 0) {
            throw new IllegalStateException("this multi-lock is not held");
        }
        taken = 0;
        return releaseBelow(locks.size());
    }

    public void unlock() {
        RecipeCalls.await(unlockAsync(), Duration.ofSeconds(30));
    }

    /** True while every lock is held and none is known to be lost. */
    public boolean isHeld() {
        return locks.stream().allMatch(DistributedLock::isHeld);
    }

    @Override
    public void close() {
        locks.forEach(DistributedLock::close);
    }
}
