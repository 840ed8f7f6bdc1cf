package dev.warden.recipes.lock;

import dev.warden.client.WardenClient;
import dev.warden.recipes.support.LockAttempt;
import dev.warden.recipes.support.NodeEvents;
import dev.warden.recipes.support.RecipePaths;

/**
 * The naive lock: whoever creates the ephemeral lock file holds the lock; everyone else watches
 * the file and races to create it when it goes. Correct, but every release wakes every waiter
 * (the herd effect) and waiters are not served in order. Kept to show the difference with
 * {@link SequentialLock}; prefer that one.
 */
public final class SimpleLock extends ReentrantNodeLock {
    private final String lockPath;

    /** @param lockPath the lock file itself; its parent directories are created as needed */
    public SimpleLock(WardenClient client, String lockPath, LockListener listener) {
        super(client, listener);
        this.lockPath = RecipePaths.checkDirectory(lockPath);
    }

    public SimpleLock(WardenClient client, String lockPath) {
        this(client, lockPath, null);
    }

    @Override
    LockAttempt newAttempt(NodeEvents events) {
        return new LockFileAttempt(client, lockPath, events, wakeups);
    }
}
