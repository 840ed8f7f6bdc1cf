package dev.warden.recipes.lock;

/** Told about the held lock's fate; runs on the client's completion executor, must not block on it. */
@FunctionalInterface
public interface LockListener {
    void lockStateChanged(LockState state);

    /** Someone changed the data of the held lock node (see the revocable locks). */
    default void lockNodeDataChanged(byte[] data) {
    }
}
