package dev.warden.recipes.lock;

import dev.warden.client.ConnectionState;
import dev.warden.client.WardenClient;
import dev.warden.client.WardenException;
import dev.warden.recipes.support.LockAttempt;
import dev.warden.recipes.support.NodeEvents;
import dev.warden.recipes.support.RecipeCalls;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;

/**
 * Reentrancy, blocking forms and listener plumbing around a {@link LockAttempt}; the subclasses
 * say how a lock node is taken.
 */
abstract class ReentrantNodeLock implements DistributedLock {
    /** How long blocking calls wait for the servers beyond the caller's lock timeout. */
    static final Duration SERVER_REPLY_ALLOWANCE = Duration.ofSeconds(30);

    final WardenClient client;
    final LongAdder wakeups = new LongAdder();
    private final LockListener listener;
    private LockAttempt attempt;
    private CompletableFuture<Boolean> pending;
    private int holdCount;
    private boolean lost;
    private boolean closed;

    ReentrantNodeLock(WardenClient client, LockListener listener) {
        this.client = client;
        this.listener = listener == null ? state -> { } : listener;
        // One listener per lock object for its whole life: the client offers no way to remove one.
        client.addStateListener(this::onConnectionState);
    }

    /** A fresh attempt reporting to {@code events}. */
    abstract LockAttempt newAttempt(NodeEvents events);

    @Override
    public CompletableFuture<Boolean> tryLockAsync() {
        return acquire(Duration.ZERO);
    }

    @Override
    public CompletableFuture<Boolean> lockAsync(Duration timeout) {
        return acquire(timeout);
    }

    private CompletableFuture<Boolean> acquire(Duration timeout) {
        LockAttempt started;
        CompletableFuture<Boolean> outcome;
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("lock is closed");
            }
            if (pending != null) {
                throw new IllegalStateException("this lock object is already waiting for the lock");
            }
            if (holdCount > 0) {
                if (lost) {
                    throw new IllegalStateException("the lock was lost; unlock it " + holdCount + " time(s) first");
                }
                holdCount++;
                return CompletableFuture.completedFuture(true);
            }
            started = newAttempt(new Events());
            attempt = started;
            lost = false;
            // Started and recorded as pending under the same lock as the checks above: otherwise a
            // second caller could start a second attempt, or close() could find an attempt not yet
            // started (releasing nothing) and no pending future to cancel. The attempt is new, so
            // nobody else can hold its monitor, and start() only sends requests.
            outcome = started.start(timeout);
            pending = outcome;
        }
        // Bookkeeping must be done before the caller sees the result, and even if the caller
        // cancelled its future, hence a separate future completed by hand.
        CompletableFuture<Boolean> visible = new CompletableFuture<>();
        outcome.whenComplete((held, error) -> {
            boolean granted = error == null && held;
            boolean kept;
            synchronized (this) {
                if (pending == outcome) {
                    pending = null;
                }
                kept = granted && !closed && attempt == started;
                if (kept) {
                    holdCount = 1;
                } else if (attempt == started) {
                    attempt = null;
                }
            }
            if (granted && !kept) {
                // Granted as close() ran: nobody holds this object's lock any more, so the node goes.
                started.release();
                visible.complete(false);
            } else if (error != null) {
                visible.completeExceptionally(RecipeCalls.unwrap(error));
            } else {
                visible.complete(held);
            }
        });
        visible.whenComplete((held, error) -> {
            if (visible.isCancelled()) {
                outcome.cancel(false);
            }
        });
        return visible;
    }

    @Override
    public CompletableFuture<Void> unlockAsync() {
        LockAttempt toRelease;
        synchronized (this) {
            if (holdCount == 0) {
                throw new IllegalStateException("unlock of a lock that is not held");
            }
            holdCount--;
            if (holdCount > 0) {
                return CompletableFuture.completedFuture(null);
            }
            toRelease = attempt;
            attempt = null;
            lost = false;
        }
        return toRelease == null ? CompletableFuture.completedFuture(null) : toRelease.release();
    }

    @Override
    public boolean tryLock() {
        return lock(Duration.ZERO);
    }

    @Override
    public boolean lock(Duration timeout) {
        if (timeout == null || timeout.isNegative()) {
            throw new IllegalArgumentException("blocking lock needs a non-negative timeout, got " + timeout);
        }
        CompletableFuture<Boolean> outcome = acquire(timeout);
        try {
            return RecipeCalls.await(outcome, timeout.plus(SERVER_REPLY_ALLOWANCE));
        } catch (WardenException.TimeoutException e) {
            // The servers did not answer in time: withdraw, unless the grant raced in.
            if (!outcome.cancel(false)) {
                return outcome.join();
            }
            throw e;
        }
    }

    @Override
    public void unlock() {
        RecipeCalls.await(unlockAsync(), SERVER_REPLY_ALLOWANCE);
    }

    @Override
    public synchronized boolean isHeld() {
        return holdCount > 0 && !lost;
    }

    @Override
    public synchronized int holdCount() {
        return holdCount;
    }

    @Override
    public synchronized String nodePath() {
        return holdCount > 0 && attempt != null ? attempt.nodePath() : null;
    }

    @Override
    public long wakeupCount() {
        return wakeups.sum();
    }

    @Override
    public void close() {
        LockAttempt toRelease;
        CompletableFuture<Boolean> waiting;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            toRelease = attempt;
            waiting = pending;
            attempt = null;
            holdCount = 0;
        }
        if (waiting != null) {
            waiting.cancel(false);
        }
        if (toRelease != null) {
            try {
                RecipeCalls.await(toRelease.release(), SERVER_REPLY_ALLOWANCE);
            } catch (RuntimeException e) {
                // The node is ephemeral: if the delete cannot be confirmed, the session's end removes it.
            }
        }
    }

    private void onConnectionState(ConnectionState state) {
        LockAttempt current;
        synchronized (this) {
            current = attempt;
        }
        if (current != null) {
            current.connectionStateChanged(state);
        }
    }

    /** Relays the attempt's events to the user's listener, keeping the lost flag. */
    private final class Events implements NodeEvents {
        @Override
        public void suspended() {
            listener.lockStateChanged(LockState.SUSPENDED);
        }

        @Override
        public void reconnected() {
            listener.lockStateChanged(LockState.RECONNECTED);
        }

        @Override
        public void lost(String reason) {
            synchronized (ReentrantNodeLock.this) {
                lost = true;
            }
            listener.lockStateChanged(LockState.LOST);
        }

        @Override
        public void dataChanged(byte[] data) {
            listener.lockNodeDataChanged(data);
        }
    }
}
