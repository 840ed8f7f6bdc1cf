package dev.warden.recipes.semaphore;

import dev.warden.client.ConnectionState;
import dev.warden.client.WardenClient;
import dev.warden.protocol.CreateMode;
import dev.warden.protocol.Perms;
import dev.warden.recipes.lock.LockState;
import dev.warden.recipes.lock.SequentialLock;
import dev.warden.recipes.support.EnsurePath;
import dev.warden.recipes.support.Failures;
import dev.warden.recipes.support.PendingWaits;
import dev.warden.recipes.support.RecipeCalls;
import dev.warden.recipes.support.RecipePaths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A counting semaphore across processes: at most {@code maxLeases} leases are held at once.
 * Every participant must use the same {@code maxLeases} for a directory.
 *
 * <p><b>How.</b> Acquirers queue on a herd-free lock ({@code <dir>/lock}, each waiter watching
 * only its predecessor). The lock's holder creates its lease node under {@code <dir>/leases}
 * (ephemeral, protected create) and, while there are more than {@code maxLeases} nodes, waits
 * for a change of that directory; it is the only one watching it, so a release wakes one
 * process, not every waiter. With its lease counted it releases the lock. Waiting is fair
 * (first come, first served).
 *
 * <p><b>Connection.</b> SUSPENDED: the {@link LeaseListener} hears SUSPENDED for every held
 * lease (it may be lost: stop using what it guards); RECONNECTED: each lease node is checked,
 * RECONNECTED if it is still there, otherwise LOST. LOST / CLOSED: every lease is LOST (its node
 * went with the session). A waiting acquire fails with the session's end; one that times out
 * leaves no node behind.
 */
public final class CountingSemaphore {
    private final WardenClient client;
    private final String leasesDir;
    private final int maxLeases;
    private final SequentialLock lock;
    private final LeaseListener listener;
    private final PendingWaits waits;
    private final Set<Lease> held = ConcurrentHashMap.newKeySet();
    private CompletableFuture<?> previousAcquire = CompletableFuture.completedFuture(null);

    public CountingSemaphore(WardenClient client, String dir, int maxLeases) {
        this(client, dir, maxLeases, null);
    }

    public CountingSemaphore(WardenClient client, String dir, int maxLeases, LeaseListener listener) {
        if (maxLeases < 1) {
            throw new IllegalArgumentException("maxLeases must be at least 1, not " + maxLeases);
        }
        RecipePaths.checkDirectory(dir);
        this.client = client;
        this.leasesDir = dir + "/leases";
        this.maxLeases = maxLeases;
        this.lock = new SequentialLock(client, dir + "/lock");
        this.listener = listener == null ? (lease, state) -> { } : listener;
        this.waits = new PendingWaits(client);
        client.addStateListener(this::onState);
    }

    public int maxLeases() {
        return maxLeases;
    }

    /** Leases of this object not yet released. */
    public List<Lease> heldLeases() {
        return List.copyOf(held);
    }

    /**
     * Acquires {@code count} leases, waiting at most {@code timeout} (null: no limit); completes
     * with them, or with an empty list if time ran out (then none is held). Acquires of one
     * object run one after another.
     */
    public synchronized CompletableFuture<List<Lease>> acquireAsync(int count, Duration timeout) {
        if (count < 1 || count > maxLeases) {
            throw new IllegalArgumentException("count must be 1.." + maxLeases + ", not " + count);
        }
        long deadlineNs = timeout == null ? Long.MAX_VALUE : System.nanoTime() + timeout.toNanos();
        CompletableFuture<List<Lease>> result = new CompletableFuture<>();
        CompletableFuture<?> before = previousAcquire;
        previousAcquire = result.handle((leases, failure) -> null);
        before.whenComplete((ignored, failure) -> start(count, deadlineNs, result));
        return result;
    }

    public Optional<Lease> acquire(Duration timeout) {
        List<Lease> leases = acquire(1, timeout);
        return leases.isEmpty() ? Optional.empty() : Optional.of(leases.get(0));
    }

    public List<Lease> acquire(int count, Duration timeout) {
        return RecipeCalls.await(acquireAsync(count, timeout), timeout.plusSeconds(30));
    }

    private void start(int count, long deadlineNs, CompletableFuture<List<Lease>> result) {
        lock.lockAsync(remaining(deadlineNs)).whenComplete((locked, failure) -> {
            if (failure != null) {
                result.completeExceptionally(Failures.cause(failure));
            } else if (!locked) {
                result.complete(List.of());
            } else {
                List<Lease> acquired = new ArrayList<>();
                takeLeases(count, deadlineNs, acquired).whenComplete((done, takeFailure) ->
                        lock.unlockAsync().whenComplete((unlocked, unlockFailure) ->
                                finish(done, takeFailure, acquired, result)));
            }
        });
    }

    private void finish(Boolean done, Throwable failure, List<Lease> acquired, CompletableFuture<List<Lease>> result) {
        if (failure == null && done) {
            held.addAll(acquired);
            result.complete(List.copyOf(acquired));
            return;
        }
        // Time ran out or it failed: give back what was taken before reporting.
        CompletableFuture<?>[] releases = acquired.stream().map(l -> RecipeCalls.deleteIfExists(client, l.nodePath()))
                .toArray(CompletableFuture[]::new);
        CompletableFuture.allOf(releases).whenComplete((ok, releaseFailure) -> {
            if (failure != null) {
                result.completeExceptionally(Failures.cause(failure));
            } else {
                result.complete(List.of());
            }
        });
    }

    private static Duration remaining(long deadlineNs) {
        if (deadlineNs == Long.MAX_VALUE) {
            return null;
        }
        return Duration.ofNanos(Math.max(0, deadlineNs - System.nanoTime()));
    }

    /** Takes leases one by one; false if time ran out (the one being waited for is deleted). */
    private CompletableFuture<Boolean> takeLeases(int count, long deadlineNs, List<Lease> acquired) {
        if (acquired.size() == count) {
            return CompletableFuture.completedFuture(true);
        }
        return EnsurePath.exists(client, leasesDir)
                .thenCompose(ignored -> client.createProtected(leasesDir + "/lease-", new byte[0], Perms.OPEN_ACL_UNSAFE,
                        CreateMode.EPHEMERAL_SEQUENTIAL))
                .thenCompose(created -> {
                    Lease lease = new Lease(client, created.path(), this);
                    acquired.add(lease);
                    return awaitRoom(deadlineNs);
                })
                .thenCompose(room -> room ? takeLeases(count, deadlineNs, acquired) : CompletableFuture.completedFuture(false));
    }

    /** True once the leases directory holds at most maxLeases nodes (ours counted); false at the deadline. */
    private CompletableFuture<Boolean> awaitRoom(long deadlineNs) {
        CompletableFuture<Void> changed = waits.track(new CompletableFuture<>());
        return client.getChildren(leasesDir, event -> changed.complete(null)).thenCompose(children -> {
            if (children.size() <= maxLeases) {
                changed.cancel(false);
                return CompletableFuture.completedFuture(true);
            }
            if (deadlineNs != Long.MAX_VALUE) {
                long leftNs = deadlineNs - System.nanoTime();
                if (leftNs <= 0) {
                    changed.cancel(false);
                    return CompletableFuture.completedFuture(false);
                }
                CompletableFuture.delayedExecutor(leftNs, TimeUnit.NANOSECONDS).execute(() -> changed.cancel(false));
            }
            return changed.handle((ok, failure) -> {
                if (changed.isCancelled()) {
                    return CompletableFuture.completedFuture(false);
                }
                if (failure != null) {
                    return CompletableFuture.<Boolean>failedFuture(Failures.cause(failure));
                }
                return awaitRoom(deadlineNs);
            }).thenCompose(next -> next);
        });
    }

    void forget(Lease lease) {
        held.remove(lease);
    }

    private void onState(ConnectionState state) {
        switch (state) {
            case SUSPENDED -> held.forEach(lease -> listener.leaseStateChanged(lease, LockState.SUSPENDED));
            case RECONNECTED -> held.forEach(lease -> client.exists(lease.nodePath()).whenComplete((stat, failure) -> {
                if (failure == null && stat.isPresent() && stat.get().ephemeralOwner() == client.sessionId()) {
                    listener.leaseStateChanged(lease, LockState.RECONNECTED);
                } else if (failure == null) {
                    lost(lease);
                }
            }));
            case LOST, CLOSED, AUTH_FAILED -> held.forEach(this::lost);
            default -> { }
        }
    }

    private void lost(Lease lease) {
        lease.markLost();
        held.remove(lease);
        listener.leaseStateChanged(lease, LockState.LOST);
    }
}
