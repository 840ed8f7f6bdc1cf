package dev.warden.recipes.election;

/**
 * Told about this participant's leadership, on the client's completion executor, except the
 * {@code notLeader} of {@link LeaderElection#relinquish()} and {@link LeaderElection#close()},
 * which runs on the caller's thread before the node is deleted. Calls are never concurrent:
 * {@code notLeader} follows the {@code elected} of the same turn (a close or relinquish waits for
 * an {@code elected} in progress), and a turn ended before its {@code elected} was delivered is
 * not reported at all. Do not block on the same client's futures inside, nor wait for a thread
 * that may be closing or relinquishing this election.
 */
public interface LeadershipListener {
    /** This participant is now the leader. */
    void elected();

    /**
     * This participant is no longer leader: it relinquished, closed, its node was deleted or its
     * session ended. Stop acting as leader at once.
     */
    void notLeader(String reason);

    /**
     * The leader's connection dropped: it may already have been replaced. Stop acting as leader
     * until {@link #reconnected()}. Comes within two thirds of the session timeout, before the
     * ensemble can expire the session (full timeout) and elect someone else.
     */
    default void suspended() {
    }

    /** The leader's session is back and its node checked: still leader. */
    default void reconnected() {
    }

    /** Taking part ended without ever being elected (the session ended while waiting). */
    default void participationEnded(Throwable cause) {
    }
}
