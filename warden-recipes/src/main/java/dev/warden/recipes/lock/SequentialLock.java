package dev.warden.recipes.lock;

import dev.warden.client.WardenClient;
import dev.warden.recipes.support.LockAttempt;
import dev.warden.recipes.support.NodeEvents;
import dev.warden.recipes.support.QueueRule;
import dev.warden.recipes.support.RecipePaths;
import dev.warden.recipes.support.SequentialTurn;

/**
 * The herd-free lock: each contender creates an ephemeral-sequential node under the lock
 * directory and watches only the node just before its own, so a release wakes exactly one
 * waiter. Waiters are served in creation order (fair). Nodes are created with a
 * {@code _p_<uuid>-} marker so a create retried after a lost reply never leaves an orphan.
 */
public final class SequentialLock extends ReentrantNodeLock {
    private final String lockDir;
    private final QueueRule rule;
    private final byte[] nodeData;

    public SequentialLock(WardenClient client, String lockDir) {
        this(client, lockDir, null);
    }

    public SequentialLock(WardenClient client, String lockDir, LockListener listener) {
        this(client, lockDir, QueueRule.exclusive("lock-"), new byte[0], listener);
    }

    /**
     * A lock with its own queue rule, for recipes built on this one (shared locks, for one).
     *
     * @param nodeData what the lock node holds, readable by anyone listing the queue
     */
    public SequentialLock(WardenClient client, String lockDir, QueueRule rule, byte[] nodeData, LockListener listener) {
        super(client, listener);
        this.lockDir = RecipePaths.checkDirectory(lockDir);
        this.rule = rule;
        this.nodeData = nodeData == null ? new byte[0] : nodeData.clone();
    }

    public String lockDir() {
        return lockDir;
    }

    @Override
    LockAttempt newAttempt(NodeEvents events) {
        return new SequentialTurn(client, lockDir, rule, nodeData, events, wakeups);
    }
}
