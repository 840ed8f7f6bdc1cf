package dev.warden.recipes.twophase;

/** A site's vote, and the transaction's outcome. */
public enum Decision {
    COMMIT,
    ABORT
}
