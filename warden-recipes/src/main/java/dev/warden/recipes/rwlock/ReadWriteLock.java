package dev.warden.recipes.rwlock;

import dev.warden.client.WardenClient;
import dev.warden.recipes.lock.DistributedLock;
import dev.warden.recipes.lock.LockListener;
import dev.warden.recipes.lock.SequentialLock;
import dev.warden.recipes.support.QueueRule;
import dev.warden.recipes.support.SequenceNames;
import java.util.List;

/**
 * Shared (read) and exclusive (write) locks over one directory of ephemeral-sequential nodes,
 * {@code read-N} and {@code write-N}. A reader proceeds when no writer is ahead of it and
 * otherwise watches only the nearest writer ahead, so a writer's release frees all the readers
 * behind it at once (they can all proceed: not a herd). A writer proceeds when nobody is ahead
 * and watches only its immediate predecessor, so each release wakes at most one writer.
 * Requests are served in arrival order, so a stream of readers cannot starve a writer.
 *
 * <p>The two locks are separate holders: there is no upgrade or downgrade, and asking for the
 * read lock while holding the write lock of the same directory waits for yourself.
 */
public final class ReadWriteLock {
    static final String READ_PREFIX = "read-";
    static final String WRITE_PREFIX = "write-";
    private static final List<String> BOTH = List.of(READ_PREFIX, WRITE_PREFIX);

    /** Readers wait for the closest writer ahead of them, if any. */
    public static final QueueRule READ_RULE = new QueueRule(READ_PREFIX, BOTH, ReadWriteLock::nearestWriterAhead);
    /** Writers wait for whoever is just ahead of them. */
    public static final QueueRule WRITE_RULE = new QueueRule(WRITE_PREFIX, BOTH, QueueRule::immediatePredecessor);

    private final DistributedLock readLock;
    private final DistributedLock writeLock;

    public ReadWriteLock(WardenClient client, String lockDir) {
        this(client, lockDir, null);
    }

    /** @param listener told SUSPENDED / RECONNECTED / LOST for whichever of the two locks is held */
    public ReadWriteLock(WardenClient client, String lockDir, LockListener listener) {
        this.readLock = new SequentialLock(client, lockDir, READ_RULE, new byte[0], listener);
        this.writeLock = new SequentialLock(client, lockDir, WRITE_RULE, new byte[0], listener);
    }

    public DistributedLock readLock() {
        return readLock;
    }

    public DistributedLock writeLock() {
        return writeLock;
    }

    static String nearestWriterAhead(List<String> sorted, String own) {
        String writer = null;
        for (String name : sorted) {
            if (name.equals(own)) {
                return writer;
            }
            if (SequenceNames.hasPrefix(name, WRITE_PREFIX)) {
                writer = name;
            }
        }
        return writer;
    }
}
