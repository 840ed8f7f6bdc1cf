package dev.warden.recipes.chubby;

import dev.warden.client.ConnectionState;
import dev.warden.client.WardenClient;
import dev.warden.client.WatchEvent;
import dev.warden.recipes.support.RecipeCalls;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The resource server's side of sequencers. {@link #checkSequencer} asks the servers whether
 * the lock node still exists at the same version (one round trip, authoritative as of the
 * read). {@link #setSequencer} does the same once and keeps a watch on the node, so that
 * {@link #isCurrent} answers locally until the node changes or goes; on any change the
 * sequencer is dropped for good.
 *
 * <p>The read is served by the server the checker is connected to, which may lag the leader
 * slightly; a check right after a hand-over may still accept the old holder for that instant.
 * Call {@code client.sync(path)} first when that matters. While the checker's own connection
 * is down it cannot hear of changes, so SUSPENDED (and LOST) forget every set sequencer.
 */
public final class SequencerChecker {
    private final WardenClient client;
    private final Set<Sequencer> current = ConcurrentHashMap.newKeySet();

    public SequencerChecker(WardenClient client) {
        this.client = client;
        // Without a connection no change can reach us: forget everything rather than trust it.
        client.addStateListener(state -> {
            if (state == ConnectionState.SUSPENDED || state.isTerminal()) {
                current.clear();
            }
        });
    }

    /** CheckSequencer: true if the lock node exists at the sequencer's version. */
    public CompletableFuture<Boolean> checkSequencer(Sequencer sequencer) {
        return client.exists(sequencer.nodePath())
                .thenApply(stat -> stat.isPresent() && stat.get().version() == sequencer.version());
    }

    public boolean checkSequencer(Sequencer sequencer, Duration timeout) {
        return RecipeCalls.await(checkSequencer(sequencer), timeout);
    }

    /**
     * SetSequencer: checks it and, if valid, watches its node so {@link #isCurrent} can answer
     * without a round trip. Completes with the same answer as {@link #checkSequencer}.
     */
    public CompletableFuture<Boolean> setSequencer(Sequencer sequencer) {
        // Added only once the read says it is valid, so isCurrent never vouches for an unchecked
        // sequencer. A change after the read comes as a watch event after the reply, so it is
        // not missed; the flag covers a reply that came before this stage was attached.
        AtomicBoolean changed = new AtomicBoolean();
        return client.exists(sequencer.nodePath(), event -> {
            changed.set(true);
            invalidate(sequencer, event);
        }).thenApply(stat -> {
            boolean valid = stat.isPresent() && stat.get().version() == sequencer.version();
            if (valid) {
                current.add(sequencer);
                if (changed.get()) {
                    current.remove(sequencer);
                }
            }
            return valid;
        });
    }

    /** True while a sequencer set with {@link #setSequencer} has seen no change to its node. */
    public boolean isCurrent(Sequencer sequencer) {
        return current.contains(sequencer);
    }

    private void invalidate(Sequencer sequencer, WatchEvent event) {
        // Deleted, or data changed (the version moved on): either way this holder is done.
        current.remove(sequencer);
    }
}
