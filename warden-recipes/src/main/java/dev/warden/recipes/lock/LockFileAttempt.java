package dev.warden.recipes.lock;

import dev.warden.client.ConnectionState;
import dev.warden.client.WardenClient;
import dev.warden.client.WardenException;
import dev.warden.client.WatchEvent;
import dev.warden.protocol.CreateMode;
import dev.warden.recipes.support.LockAttempt;
import dev.warden.recipes.support.NodeEvents;
import dev.warden.recipes.support.RecipeCalls;
import dev.warden.recipes.support.RecipePaths;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * One try at the single ephemeral lock file. Every waiter watches that same file, so each
 * release wakes all of them and all but one go back to sleep: the herd effect, kept on purpose.
 * The file holds a per-attempt token, so after a lost create reply the attempt can tell its own
 * file from someone else's.
 */
final class LockFileAttempt implements LockAttempt {
    private enum Phase { NEW, WAITING, HELD, DONE }

    private final WardenClient client;
    private final String lockPath;
    private final NodeEvents events;
    private final LongAdder wakeups;
    private final byte[] token = UUID.randomUUID().toString().getBytes(StandardCharsets.UTF_8);
    private final CompletableFuture<Boolean> result = new CompletableFuture<>();
    private Phase phase = Phase.NEW;
    private boolean tryOnly;

    LockFileAttempt(WardenClient client, String lockPath, NodeEvents events, LongAdder wakeups) {
        this.client = client;
        this.lockPath = lockPath;
        this.events = events;
        this.wakeups = wakeups;
    }

    @Override
    public synchronized CompletableFuture<Boolean> start(Duration timeout) {
        if (phase != Phase.NEW) {
            throw new IllegalStateException("an attempt is used once");
        }
        phase = Phase.WAITING;
        tryOnly = timeout != null && timeout.isZero();
        if (timeout != null && !tryOnly) {
            CompletableFuture.delayedExecutor(timeout.toMillis(), TimeUnit.MILLISECONDS).execute(this::giveUp);
        }
        result.whenComplete((held, error) -> {
            if (result.isCancelled()) {
                // Release even if already granted: a grant whose check is still in flight has not
                // reported true, and cannot now, so nobody else would ever delete the file.
                release();
            }
        });
        String parent = lockPath.substring(0, lockPath.lastIndexOf('/'));
        CompletableFuture<Void> ready = parent.isEmpty() ? CompletableFuture.completedFuture(null)
                : RecipePaths.ensureDirectory(client, parent);
        ready.whenComplete((ok, error) -> {
            if (error != null) {
                fail(error);
            } else {
                tryCreate();
            }
        });
        return result;
    }

    @Override
    public String nodePath() {
        return lockPath;
    }

    private synchronized boolean isIn(Phase expected) {
        return phase == expected;
    }

    private void tryCreate() {
        if (!isIn(Phase.WAITING)) {
            return;
        }
        client.create(lockPath, token, CreateMode.EPHEMERAL).whenComplete((path, error) -> {
            if (error == null) {
                grant();
            } else if (RecipeCalls.unwrap(error) instanceof WardenException.NodeExistsException
                    || RecipeCalls.isConnectionLoss(error)) {
                // Taken, or our create's reply was lost: the file's content tells which.
                inspect();
            } else {
                fail(error);
            }
        });
    }

    private void inspect() {
        client.getData(lockPath, this::onLockFileEvent).whenComplete((read, error) -> {
            Throwable cause = RecipeCalls.unwrap(error);
            if (error == null && Arrays.equals(read.data(), token)) {
                grant();
            } else if (error == null && tryOnly) {
                giveUp();
            } else if (cause instanceof WardenException.NoNodeException || RecipeCalls.isConnectionLoss(cause)) {
                tryCreate();
            } else if (error != null) {
                fail(error);
            }
            // Otherwise someone else holds it and the watch brings us back.
        });
    }

    private void onLockFileEvent(WatchEvent event) {
        if (isIn(Phase.WAITING)) {
            wakeups.increment();
            tryCreate();
        } else if (event.kind() == WatchEvent.Kind.NODE_DELETED && markLost()) {
            reportLost("lock file was deleted", new WardenException.NoNodeException(lockPath, -1));
        } else if (event.kind() == WatchEvent.Kind.NODE_DATA_CHANGED && isIn(Phase.HELD)) {
            client.getData(lockPath, this::onLockFileEvent)
                    .thenAccept(read -> events.dataChanged(read.data()));
        }
    }

    /** Our create succeeded (or a lost create is found to have): hold the lock, unless we stopped waiting. */
    private void grant() {
        Phase was;
        synchronized (this) {
            was = phase;
            if (was == Phase.WAITING) {
                phase = Phase.HELD;
            }
        }
        if (was == Phase.DONE) {
            // Given up between tryCreate's check and its create: giveUp's read may have gone
            // first and found no file, so the file that has now appeared is ours to remove.
            removeOwnFile();
        }
        if (was != Phase.WAITING) {
            return;
        }
        // Watch the file we now hold so that a forced deletion is reported as a loss.
        client.exists(lockPath, this::onLockFileEvent).whenComplete((stat, error) -> {
            if (error == null && stat.isPresent()) {
                result.complete(true);
            } else {
                // Fail the result even if the loss was seen first (a deletion event can come
                // before this reply): the caller is still waiting for it.
                markLost();
                result.completeExceptionally(error != null ? RecipeCalls.unwrap(error)
                        : new WardenException.NoNodeException(lockPath, -1));
            }
        });
    }

    /**
     * Reports a held lock lost. Until the result says true the caller does not know it held the
     * lock, so then the result's failure is the report, not a loss of something never granted.
     */
    private void reportLost(String reason, Throwable cause) {
        if (!result.completeExceptionally(cause)) {
            events.lost(reason);
        }
    }

    private synchronized boolean markLost() {
        if (phase != Phase.HELD) {
            return false;
        }
        phase = Phase.DONE;
        return true;
    }

    private void fail(Throwable error) {
        synchronized (this) {
            if (phase != Phase.WAITING) {
                return;
            }
            phase = Phase.DONE;
        }
        result.completeExceptionally(RecipeCalls.unwrap(error));
    }

    private void giveUp() {
        synchronized (this) {
            if (phase != Phase.WAITING) {
                return;
            }
            phase = Phase.DONE;
        }
        result.complete(false);
        // A create in flight may still succeed: this read removes the file if the create went
        // first, grant() if it went after.
        removeOwnFile();
    }

    /** Deletes the lock file only if it carries our token. */
    private void removeOwnFile() {
        client.getData(lockPath).thenAccept(read -> {
            if (Arrays.equals(read.data(), token)) {
                client.delete(lockPath, read.stat().version());
            }
        });
    }

    @Override
    public void connectionStateChanged(ConnectionState state) {
        Phase seen;
        synchronized (this) {
            seen = phase;
            if (state.isTerminal() && phase == Phase.WAITING) {
                phase = Phase.DONE;
            }
        }
        switch (state) {
            case SUSPENDED -> {
                if (seen == Phase.HELD) {
                    events.suspended();
                }
            }
            case RECONNECTED -> {
                if (seen == Phase.HELD) {
                    client.getData(lockPath).whenComplete((read, error) -> {
                        if (error == null && Arrays.equals(read.data(), token) && isIn(Phase.HELD)) {
                            events.reconnected();
                        } else if (RecipeCalls.unwrap(error) instanceof WardenException.NoNodeException && markLost()) {
                            reportLost("lock file gone after reconnecting", RecipeCalls.unwrap(error));
                        }
                    });
                }
            }
            case LOST, CLOSED, AUTH_FAILED -> {
                if (seen == Phase.HELD && markLost()) {
                    reportLost("session " + state, new WardenException.SessionExpiredException("session " + state));
                } else if (seen == Phase.WAITING) {
                    result.completeExceptionally(new WardenException.SessionExpiredException("session " + state + " while waiting"));
                }
            }
            default -> {
            }
        }
    }

    @Override
    public CompletableFuture<Void> release() {
        synchronized (this) {
            if (phase == Phase.WAITING) {
                giveUp();
                return CompletableFuture.completedFuture(null);
            }
            if (phase != Phase.HELD) {
                return CompletableFuture.completedFuture(null);
            }
            phase = Phase.DONE;
        }
        return RecipeCalls.deleteIfExists(client, lockPath);
    }
}
