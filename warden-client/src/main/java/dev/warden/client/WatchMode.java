package dev.warden.client;

/** Modes of {@link WardenClient#addWatch}: watches that stay until their handle is closed. */
public enum WatchMode {
    /** All four event kinds for exactly the given path. */
    PERSISTENT,
    /** Created, deleted and data-changed events for the path and every descendant. */
    PERSISTENT_RECURSIVE
}
