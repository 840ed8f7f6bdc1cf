package dev.warden.recipes.election;

import dev.warden.client.ConnectionState;
import dev.warden.client.WardenClient;
import dev.warden.client.WardenException;
import dev.warden.recipes.support.NodeEvents;
import dev.warden.recipes.support.QueueRule;
import dev.warden.recipes.support.RecipeCalls;
import dev.warden.recipes.support.RecipePaths;
import dev.warden.recipes.support.SequenceNames;
import dev.warden.recipes.support.SequentialTurn;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * Herd-free leader election: every participant creates an ephemeral-sequential
 * {@code member-} node holding its id; the lowest is the leader and every other participant
 * watches only the node just ahead of it, so a leader's departure wakes exactly one successor.
 * Anyone, participant or not, can read the current leader's id with {@link #currentLeader}.
 */
public final class LeaderElection implements AutoCloseable {
    static final String MEMBER_PREFIX = "member-";
    private static final QueueRule RULE = QueueRule.exclusive(MEMBER_PREFIX);
    private static final int LEADER_READ_ATTEMPTS = 5;

    private final WardenClient client;
    private final String electionDir;
    private final byte[] participantId;
    private final LeadershipListener listener;
    private final LongAdder wakeups = new LongAdder();
    /**
     * Held while calling the listener about leadership, and while deciding whether to: a turn
     * may be decided on the client's thread while the user's thread closes or relinquishes, and
     * the listener must still hear elected() before notLeader(), or neither. Taken before, never
     * while holding, this object's monitor.
     */
    private final Object delivery = new Object();
    /** The turn the listener has heard elected() for and not yet notLeader(); guarded by delivery. */
    private SequentialTurn electedTurn;
    private SequentialTurn turn;
    private boolean leader;
    private boolean started;
    private boolean closed;
    private boolean sessionOver;

    public LeaderElection(WardenClient client, String electionDir, String participantId, LeadershipListener listener) {
        if (participantId == null || participantId.isEmpty()) {
            throw new IllegalArgumentException("participant id must not be empty");
        }
        if (listener == null) {
            throw new IllegalArgumentException("a leadership listener is required");
        }
        this.client = client;
        this.electionDir = RecipePaths.checkDirectory(electionDir);
        this.participantId = participantId.getBytes(StandardCharsets.UTF_8);
        this.listener = listener;
        // One listener for this object's life: the client offers no way to remove one.
        client.addStateListener(this::onConnectionState);
    }

    /** Joins the election; returns at once, the listener hears when this participant is elected. */
    public void start() {
        Runnable watchTurn;
        synchronized (this) {
            if (started || closed) {
                throw new IllegalStateException(closed ? "election is closed" : "already started");
            }
            started = true;
            watchTurn = join();
        }
        watchTurn.run();
    }

    public synchronized boolean isLeader() {
        return leader;
    }

    /** Waits at most {@code timeout} for this participant to be leader. */
    public synchronized boolean awaitLeadership(Duration timeout) throws InterruptedException {
        long deadlineNs = System.nanoTime() + timeout.toNanos();
        while (!leader) {
            long leftNs = deadlineNs - System.nanoTime();
            if (leftNs <= 0 || closed) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, leftNs);
        }
        return true;
    }

    /**
     * Gives up leadership and queues up again at the back. The listener hears
     * {@code notLeader} before the node is deleted, so this participant stops acting as
     * leader before anyone else can start. Does nothing if not leader.
     */
    public CompletableFuture<Void> relinquish() {
        SequentialTurn old;
        synchronized (this) {
            if (!leader) {
                return CompletableFuture.completedFuture(null);
            }
            leader = false;
            old = turn;
            turn = null;
        }
        deliverNotLeader(old, "relinquished");
        return old.release().thenRun(() -> {
            Runnable watchTurn = null;
            synchronized (this) {
                if (!closed && !sessionOver) {
                    watchTurn = join();
                }
            }
            if (watchTurn != null) {
                watchTurn.run();
            }
        });
    }

    /** Watch notifications received while waiting to lead (one per predecessor departure). */
    public long wakeupCount() {
        return wakeups.sum();
    }

    /** The id of the current leader of {@code electionDir}, or empty if nobody takes part. */
    public static CompletableFuture<Optional<String>> currentLeader(WardenClient client, String electionDir) {
        return readLeader(client, RecipePaths.checkDirectory(electionDir), 1);
    }

    private static CompletableFuture<Optional<String>> readLeader(WardenClient client, String dir, int attempt) {
        return client.getChildren(dir).thenCompose(children -> {
            List<String> sorted = SequenceNames.sortedParticipants(children, List.of(MEMBER_PREFIX));
            if (sorted.isEmpty()) {
                return CompletableFuture.completedFuture(Optional.<String>empty());
            }
            return client.getData(RecipePaths.child(dir, sorted.get(0)))
                    .thenApply(read -> Optional.of(new String(read.data(), StandardCharsets.UTF_8)))
                    .exceptionallyCompose(error -> {
                        // The leader left between the listing and the read: look again.
                        if (RecipeCalls.unwrap(error) instanceof WardenException.NoNodeException && attempt < LEADER_READ_ATTEMPTS) {
                            return readLeader(client, dir, attempt + 1);
                        }
                        return CompletableFuture.failedFuture(RecipeCalls.unwrap(error));
                    });
        }).exceptionally(error -> {
            if (RecipeCalls.unwrap(error) instanceof WardenException.NoNodeException) {
                return Optional.empty();
            }
            throw new java.util.concurrent.CompletionException(RecipeCalls.unwrap(error));
        });
    }

    /** Leaves the election (relinquishing first if leader). */
    @Override
    public void close() {
        SequentialTurn old;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            leader = false;
            old = turn;
            turn = null;
            notifyAll();
        }
        deliverNotLeader(old, "closed");
        if (old != null) {
            try {
                RecipeCalls.await(old.release(), Duration.ofSeconds(30));
            } catch (RuntimeException e) {
                // The node is ephemeral: the session's end removes it if the delete was not confirmed.
            }
        }
    }

    /**
     * Called with this object's monitor held; the caller runs the returned action after leaving
     * it, so that a turn decided at once is never reported under the monitor.
     */
    private Runnable join() {
        TurnEvents events = new TurnEvents();
        SequentialTurn next = new SequentialTurn(client, electionDir, RULE, participantId, events, wakeups);
        events.turn = next;
        turn = next;
        CompletableFuture<Boolean> decided = next.start(null);
        return () -> decided.whenComplete((held, error) -> onTurnDecided(next, error));
    }

    private void onTurnDecided(SequentialTurn decided, Throwable error) {
        if (error != null) {
            synchronized (this) {
                if (turn != decided) {
                    return;
                }
                turn = null;
            }
            listener.participationEnded(RecipeCalls.unwrap(error));
            return;
        }
        synchronized (this) {
            if (turn != decided) {
                return;
            }
            leader = true;
            notifyAll();
        }
        synchronized (delivery) {
            // A close or relinquish may have ended the turn since: then the listener hears nothing of it.
            synchronized (this) {
                if (!leader || turn != decided) {
                    return;
                }
            }
            electedTurn = decided;
            listener.elected();
        }
    }

    /** Tells the listener that {@code ended} no longer leads, if it was told that it did. */
    private void deliverNotLeader(SequentialTurn ended, String reason) {
        synchronized (delivery) {
            if (ended == null || electedTurn != ended) {
                return;
            }
            electedTurn = null;
            listener.notLeader(reason);
        }
    }

    private void onConnectionState(ConnectionState state) {
        SequentialTurn current;
        synchronized (this) {
            sessionOver |= state.isTerminal();
            current = turn;
        }
        if (current != null) {
            current.connectionStateChanged(state);
        }
    }

    /** Relays one turn's events while it is the current one. */
    private final class TurnEvents implements NodeEvents {
        SequentialTurn turn;

        private boolean isCurrentLeaderTurn() {
            synchronized (LeaderElection.this) {
                return leader && LeaderElection.this.turn == turn;
            }
        }

        @Override
        public void suspended() {
            synchronized (delivery) {
                if (electedTurn == turn && isCurrentLeaderTurn()) {
                    listener.suspended();
                }
            }
        }

        @Override
        public void reconnected() {
            synchronized (delivery) {
                if (electedTurn == turn && isCurrentLeaderTurn()) {
                    listener.reconnected();
                }
            }
        }

        @Override
        public void lost(String reason) {
            boolean rejoin;
            synchronized (LeaderElection.this) {
                if (!isCurrentLeaderTurn()) {
                    return;
                }
                leader = false;
                LeaderElection.this.turn = null;
                rejoin = !closed && !sessionOver;
            }
            deliverNotLeader(turn, reason);
            if (rejoin) {
                Runnable watchTurn = null;
                synchronized (LeaderElection.this) {
                    if (!closed && LeaderElection.this.turn == null) {
                        watchTurn = join();
                    }
                }
                if (watchTurn != null) {
                    watchTurn.run();
                }
            }
        }
    }
}
