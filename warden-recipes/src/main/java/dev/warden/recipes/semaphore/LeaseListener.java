package dev.warden.recipes.semaphore;

import dev.warden.recipes.lock.LockState;

/**
 * Told about held leases: SUSPENDED (a lease may be lost: stop using what it guards until
 * RECONNECTED), RECONNECTED (the lease node was checked and is still there) or LOST. Runs on the
 * client's completion executor; must not block on the client.
 */
@FunctionalInterface
public interface LeaseListener {
    void leaseStateChanged(Lease lease, LockState state);
}
