package dev.warden.recipes.node;

/** Told when a {@link PersistentEphemeralNode} is (re)created or cannot be kept any more. */
public interface NodeListener {
    /** The node exists at {@code path} (first creation, or re-creation after it vanished). */
    default void created(String path) {
    }

    /** The session ended and no new one can be had: the node is gone for good. */
    default void lost() {
    }
}
