package dev.warden.recipes.atomic;

/**
 * A write's reply was lost and the node was written more times than it remembers before the
 * writer could look, so it cannot tell whether its own write was applied. Read the value and
 * decide; do not simply retry an increment, which might count twice.
 */
public final class AtomicOutcomeUnknownException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    AtomicOutcomeUnknownException(String path) {
        super("the reply to a write of " + path + " was lost and the node has been written more often since than it remembers;"
                + " whether the write was applied is unknown: read the value and decide");
    }
}
