package dev.warden.recipes.support;

/**
 * What a held node tells its owner. Called on the client's completion executor; do not block
 * on the same client's futures inside.
 */
public interface NodeEvents {
    /** The connection dropped: the node may be gone by the time the session is resumed. */
    void suspended();

    /** The session was re-attached and the node was checked to still be ours. */
    void reconnected();

    /** The node is gone (session expired or closed, or someone deleted it). Terminal. */
    void lost(String reason);

    /** Someone changed the held node's data (revocation requests use this). */
    default void dataChanged(byte[] data) {
    }
}
