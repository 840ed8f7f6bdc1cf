package dev.warden.recipes.support;

import dev.warden.client.ConnectionState;
import dev.warden.client.DataAndStat;
import dev.warden.client.WardenClient;
import dev.warden.client.WardenException;
import dev.warden.client.WatchEvent;
import dev.warden.protocol.CreateMode;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * One participant's place in a queue of ephemeral-sequential nodes, the herd-free way: create
 * the node, list the directory without a watch, and if the {@link QueueRule} names a blocker,
 * watch only that node; recheck when it changes. When no blocker is left the turn is held
 * and the node itself is watched so that a deletion by anyone else is reported as a loss.
 *
 * <p>The node name carries a fresh {@code _p_<uuid>-} marker. If a create's reply is lost with
 * the connection, the directory is searched for the marker before creating again, so a retried
 * create never leaves an orphan that would block the queue for as long as the session lives.
 */
public final class SequentialTurn implements LockAttempt {
    /** Creates tried after lost replies; each one waits for the next connection. */
    private static final int CREATE_ATTEMPTS = 5;
    private static final byte[] NO_DATA = new byte[0];

    private enum Phase { NEW, CREATING, WAITING, HELD, DONE }

    private final WardenClient client;
    private final String dir;
    private final QueueRule rule;
    private final byte[] data;
    private final NodeEvents events;
    private final LongAdder wakeups;
    private final String marker = SequenceNames.PROTECTED_PREFIX + UUID.randomUUID() + "-";
    private final CompletableFuture<Boolean> result = new CompletableFuture<>();
    /** Completes once a turn abandoned before its create finished has removed its node. */
    private final CompletableFuture<Void> lateCleanup = new CompletableFuture<>();
    private Phase phase = Phase.NEW;
    private String ownName;
    private boolean tryOnly;

    /**
     * @param wakeups counts watch notifications received while waiting (herd-effect diagnostics)
     */
    public SequentialTurn(WardenClient client, String dir, QueueRule rule, byte[] data, NodeEvents events, LongAdder wakeups) {
        this.client = client;
        this.dir = RecipePaths.checkDirectory(dir);
        this.rule = rule;
        this.data = data == null ? NO_DATA : data.clone();
        this.events = events;
        this.wakeups = wakeups;
    }

    @Override
    public synchronized CompletableFuture<Boolean> start(Duration timeout) {
        if (phase != Phase.NEW) {
            throw new IllegalStateException("a turn is used once");
        }
        if (timeout != null && timeout.isNegative()) {
            throw new IllegalArgumentException("negative timeout: " + timeout);
        }
        phase = Phase.CREATING;
        tryOnly = timeout != null && timeout.isZero();
        if (timeout != null && !tryOnly) {
            CompletableFuture.delayedExecutor(timeout.toMillis(), TimeUnit.MILLISECONDS).execute(this::giveUp);
        }
        result.whenComplete((held, error) -> {
            if (result.isCancelled()) {
                // Release even if already granted: a grant whose read is still in flight has not
                // reported true, and cannot now, so nobody else would ever delete the node.
                end(true);
            }
        });
        createOwnNode(1).whenComplete(this::onCreated);
        return result;
    }

    @Override
    public synchronized String nodePath() {
        return ownName == null ? null : RecipePaths.child(dir, ownName);
    }

    /** True while the turn is held (not yet released or lost). */
    public synchronized boolean isHeld() {
        return phase == Phase.HELD;
    }

    private CompletableFuture<String> createOwnNode(int attempt) {
        String path = RecipePaths.child(dir, marker + rule.ownPrefix());
        return client.create(path, data, CreateMode.EPHEMERAL_SEQUENTIAL).handle((created, error) -> {
            if (error == null) {
                return CompletableFuture.completedFuture(created);
            }
            if (RecipeCalls.unwrap(error) instanceof WardenException.NoNodeException && attempt < CREATE_ATTEMPTS) {
                // Only the first participant pays for creating the directory.
                return RecipePaths.ensureDirectory(client, dir).thenCompose(ignored -> createOwnNode(attempt + 1));
            }
            if (RecipeCalls.isConnectionLoss(error) && attempt < CREATE_ATTEMPTS) {
                return findOwnNode().thenCompose(found -> found != null
                        ? CompletableFuture.completedFuture(found)
                        : createOwnNode(attempt + 1));
            }
            return CompletableFuture.<String>failedFuture(RecipeCalls.unwrap(error));
        }).thenCompose(next -> next);
    }

    /** Runs once reconnected: the listing waits in the client's queue for the next connection. */
    private CompletableFuture<String> findOwnNode() {
        return client.getChildren(dir).thenApply(children -> {
            for (String child : children) {
                if (child.startsWith(marker)) {
                    return RecipePaths.child(dir, child);
                }
            }
            return null;
        });
    }

    private void onCreated(String path, Throwable error) {
        boolean abandoned;
        synchronized (this) {
            abandoned = phase == Phase.DONE;
            if (error == null) {
                ownName = path.substring(path.lastIndexOf('/') + 1);
            }
            if (!abandoned) {
                phase = error == null ? Phase.WAITING : Phase.DONE;
            }
        }
        if (error != null) {
            result.completeExceptionally(RecipeCalls.unwrap(error));
            // The create may have happened on a connection whose reply we never saw.
            findOwnNode().thenCompose(found -> found == null ? CompletableFuture.completedFuture(null)
                    : RecipeCalls.deleteIfExists(client, found))
                    .whenComplete((ok, cleanupError) -> lateCleanup.complete(null));
        } else if (abandoned) {
            RecipeCalls.deleteIfExists(client, path).whenComplete((ok, deleteError) -> lateCleanup.complete(null));
        } else {
            checkTurn();
        }
    }

    private void checkTurn() {
        client.getChildren(dir).whenComplete((children, error) -> {
            if (error != null) {
                onWaitError(error);
                return;
            }
            String own;
            synchronized (this) {
                if (phase != Phase.WAITING) {
                    return;
                }
                own = ownName;
            }
            List<String> sorted = SequenceNames.sortedParticipants(children, rule.queuePrefixes());
            if (!sorted.contains(own)) {
                failWaiting(new WardenException.NoNodeException(RecipePaths.child(dir, own), -1));
                return;
            }
            String blocker = rule.blockers().blockerOf(sorted, own);
            if (blocker == null) {
                grant();
            } else if (tryOnly) {
                giveUp();
            } else {
                watchBlocker(RecipePaths.child(dir, blocker));
            }
        });
    }

    private void watchBlocker(String blockerPath) {
        client.exists(blockerPath, this::onBlockerEvent).whenComplete((stat, error) -> {
            if (error != null) {
                onWaitError(error);
            } else if (stat.isEmpty()) {
                checkTurn();
            }
            // Otherwise the watch brings us back.
        });
    }

    private void onBlockerEvent(WatchEvent event) {
        wakeups.increment();
        synchronized (this) {
            if (phase != Phase.WAITING) {
                return;
            }
        }
        checkTurn();
    }

    private void onWaitError(Throwable error) {
        if (RecipeCalls.isConnectionLoss(error)) {
            // Reads wait for the next connection; a lost session ends the wait via the state listener.
            checkTurn();
        } else {
            failWaiting(RecipeCalls.unwrap(error));
        }
    }

    private void failWaiting(Throwable cause) {
        String path;
        synchronized (this) {
            if (phase != Phase.WAITING) {
                return;
            }
            phase = Phase.DONE;
            path = nodePath();
        }
        result.completeExceptionally(cause);
        RecipeCalls.deleteIfExists(client, path);
    }

    private void grant() {
        String path;
        synchronized (this) {
            if (phase != Phase.WAITING) {
                return;
            }
            phase = Phase.HELD;
            path = nodePath();
        }
        // Watch our own node before reporting success, so a forced deletion can never go unseen.
        client.getData(path, this::onOwnNodeEvent).whenComplete((read, error) -> {
            if (error != null) {
                // Fail the result even if a loss was seen first (the session's end can be): the
                // caller is still waiting for it.
                boolean lostHere = markLost();
                result.completeExceptionally(RecipeCalls.unwrap(error));
                if (lostHere) {
                    RecipeCalls.deleteIfExists(client, path);
                }
                return;
            }
            result.complete(true);
            if (read.stat().version() > 0) {
                events.dataChanged(read.data());
            }
        });
    }

    private void onOwnNodeEvent(WatchEvent event) {
        if (event.kind() == WatchEvent.Kind.NODE_DELETED) {
            if (markLost()) {
                reportLost("lock node " + event.path() + " was deleted", new WardenException.NoNodeException(event.path(), -1));
            }
        } else if (event.kind() == WatchEvent.Kind.NODE_DATA_CHANGED && isHeld()) {
            client.getData(event.path(), this::onOwnNodeEvent).whenComplete(this::onOwnDataRead);
        }
    }

    private void onOwnDataRead(DataAndStat read, Throwable error) {
        if (error == null) {
            if (isHeld()) {
                events.dataChanged(read.data());
            }
        } else if (RecipeCalls.unwrap(error) instanceof WardenException.NoNodeException && markLost()) {
            reportLost("lock node was deleted", RecipeCalls.unwrap(error));
        }
    }

    /**
     * Reports a held turn lost. Until the result says true the caller does not know it held the
     * turn, so then the result's failure is the report, not a loss of something never granted.
     */
    private void reportLost(String reason, Throwable cause) {
        if (!result.completeExceptionally(cause)) {
            events.lost(reason);
        }
    }

    /** Moves HELD to DONE; true if this call did it (so the loss is reported once). */
    private synchronized boolean markLost() {
        if (phase != Phase.HELD) {
            return false;
        }
        phase = Phase.DONE;
        return true;
    }

    @Override
    public void connectionStateChanged(ConnectionState state) {
        Phase seen;
        String path;
        synchronized (this) {
            seen = phase;
            path = nodePath();
            if (state.isTerminal() && (seen == Phase.CREATING || seen == Phase.WAITING)) {
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
                    client.exists(path).whenComplete((stat, error) -> {
                        if (error == null && stat.isPresent() && isHeld()) {
                            events.reconnected();
                        } else if (error == null && stat.isEmpty() && markLost()) {
                            reportLost("lock node gone after reconnecting", new WardenException.NoNodeException(path, -1));
                        }
                    });
                }
            }
            case LOST, CLOSED, AUTH_FAILED -> {
                if (seen == Phase.HELD && markLost()) {
                    reportLost("session " + state, new WardenException.SessionExpiredException("session " + state));
                } else if (seen == Phase.CREATING || seen == Phase.WAITING) {
                    result.completeExceptionally(new WardenException.SessionExpiredException("session " + state + " while waiting"));
                }
            }
            default -> {
            }
        }
    }

    /** Stops waiting (timeout, try-only, cancel): completes false and removes our node. */
    private CompletableFuture<Void> giveUp() {
        return end(false);
    }

    @Override
    public CompletableFuture<Void> release() {
        return end(true);
    }

    /**
     * Ends the turn and removes its node: a waiting turn (always) or a held one (only when
     * {@code evenIfHeld}). The phase is read and moved to DONE under one lock: were it read
     * first and changed later, a grant landing in between would leave a held node that
     * nobody releases.
     */
    private CompletableFuture<Void> end(boolean evenIfHeld) {
        Phase was;
        String path;
        synchronized (this) {
            was = phase;
            boolean waiting = was == Phase.CREATING || was == Phase.WAITING;
            if (!waiting && !(evenIfHeld && was == Phase.HELD)) {
                return CompletableFuture.completedFuture(null);
            }
            phase = Phase.DONE;
            path = nodePath();
        }
        if (was == Phase.HELD) {
            return RecipeCalls.deleteIfExists(client, path);
        }
        if (path == null) {
            // While CREATING, onCreated sees DONE and deletes the node once it exists.
            result.complete(false);
            return lateCleanup;
        }
        // Report only once the node is gone, so "false" really means nothing is left queued.
        CompletableFuture<Void> deleted = RecipeCalls.deleteIfExists(client, path);
        deleted.whenComplete((ok, error) -> result.complete(false));
        return deleted;
    }
}
