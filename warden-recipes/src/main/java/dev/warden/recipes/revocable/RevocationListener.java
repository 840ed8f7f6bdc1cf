package dev.warden.recipes.revocable;

import dev.warden.recipes.lock.DistributedLock;

/**
 * Decides what to do when someone asks the holder to give a lock up. Runs on the client's
 * completion executor: to comply, finish up and call {@code lock.unlockAsync()} (not the
 * blocking {@code unlock}, which would wait on this very thread), possibly later from another
 * thread. Ignoring the request is allowed; the revoker may then delete the node by force,
 * which the holder sees as {@code LockState.LOST}.
 */
@FunctionalInterface
public interface RevocationListener {
    void revocationRequested(DistributedLock lock);
}
