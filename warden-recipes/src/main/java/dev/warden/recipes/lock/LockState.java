package dev.warden.recipes.lock;

/** What a {@link LockListener} is told while a lock is held. */
public enum LockState {
    /**
     * The connection dropped. The lock may already be lost: stop touching the guarded resource
     * until {@link #RECONNECTED}. Reported after two thirds of the session timeout without a
     * server at the latest, so before the ensemble can expire the session (full timeout) and
     * hand the lock to someone else.
     */
    SUSPENDED,
    /** The session was re-attached and the lock node checked to still exist: still held. */
    RECONNECTED,
    /** The lock is gone (session expired or closed, or the node was deleted). Terminal for this hold. */
    LOST
}
