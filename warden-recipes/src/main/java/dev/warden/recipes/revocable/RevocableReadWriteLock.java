package dev.warden.recipes.revocable;

import dev.warden.client.WardenClient;
import dev.warden.recipes.lock.DistributedLock;
import dev.warden.recipes.lock.LockListener;
import dev.warden.recipes.lock.LockState;
import dev.warden.recipes.lock.SequentialLock;
import dev.warden.recipes.rwlock.ReadWriteLock;
import dev.warden.recipes.support.QueueRule;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Shared locks, as in {@link ReadWriteLock}, whose holders can be asked to let go: a
 * {@link Revoker} writes {@code unlock} into the holder's lock node, the holder (which watches
 * its own node while holding) calls the {@link RevocationListener}, and the listener decides.
 * A request made while the lock was still awaited is delivered as soon as it is granted.
 */
public final class RevocableReadWriteLock {
    /** What a revoker writes into a lock node to ask for it back. */
    public static final byte[] UNLOCK_REQUEST = "unlock".getBytes(StandardCharsets.UTF_8);

    private final DistributedLock readLock;
    private final DistributedLock writeLock;

    public RevocableReadWriteLock(WardenClient client, String lockDir, RevocationListener onRevoke) {
        this(client, lockDir, onRevoke, null);
    }

    /** @param stateListener told SUSPENDED / RECONNECTED / LOST (a forced revocation is a LOST) */
    public RevocableReadWriteLock(WardenClient client, String lockDir, RevocationListener onRevoke, LockListener stateListener) {
        if (onRevoke == null) {
            throw new IllegalArgumentException("a revocable lock needs a RevocationListener");
        }
        this.readLock = revocable(client, lockDir, ReadWriteLock.READ_RULE, onRevoke, stateListener);
        this.writeLock = revocable(client, lockDir, ReadWriteLock.WRITE_RULE, onRevoke, stateListener);
    }

    public DistributedLock readLock() {
        return readLock;
    }

    public DistributedLock writeLock() {
        return writeLock;
    }

    private static DistributedLock revocable(WardenClient client, String lockDir, QueueRule rule,
                                             RevocationListener onRevoke, LockListener stateListener) {
        // The listener must name the lock it belongs to, which exists only after construction.
        AtomicReference<DistributedLock> self = new AtomicReference<>();
        LockListener relay = new LockListener() {
            @Override
            public void lockStateChanged(LockState state) {
                if (stateListener != null) {
                    stateListener.lockStateChanged(state);
                }
            }

            @Override
            public void lockNodeDataChanged(byte[] data) {
                if (Arrays.equals(data, UNLOCK_REQUEST)) {
                    onRevoke.revocationRequested(self.get());
                }
            }
        };
        SequentialLock lock = new SequentialLock(client, lockDir, rule, new byte[0], relay);
        self.set(lock);
        return lock;
    }
}
