package dev.warden.recipes.revocable;

/** How a {@link Revoker#revoke} ended. */
public enum RevocationOutcome {
    /** The holder released the lock within the grace period. */
    RELEASED,
    /** The grace period ran out and the revoker deleted the lock node. */
    FORCED,
    /** The node was already gone when the request was made. */
    ALREADY_GONE
}
