package dev.warden.recipes.support;

import dev.warden.client.ConnectionState;
import dev.warden.client.WardenClient;
import dev.warden.client.WardenException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A recipe object's pending waits, tied to its client's connection state through one state
 * listener (the client offers no way to remove listeners, so recipes must not add one per
 * wait). A wait that sits on a watch has no request in flight, so nothing else would ever
 * complete it once the session is LOST or the client CLOSED: those states fail it. A wait may
 * also ask to be re-checked on RECONNECTED, for watches that do not report what changed
 * while the client was disconnected (recursive ones).
 */
public final class PendingWaits {
    private final Set<CompletableFuture<?>> pending = ConcurrentHashMap.newKeySet();
    private final Map<CompletableFuture<?>, Runnable> recheckOnReconnect = new ConcurrentHashMap<>();
    private volatile ConnectionState terminalState;

    public PendingWaits(WardenClient client) {
        client.addStateListener(this::onState);
    }

    /** Tracks {@code wait} until it completes; fails it at once if the session already ended. */
    public <T> CompletableFuture<T> track(CompletableFuture<T> wait) {
        pending.add(wait);
        wait.whenComplete((value, failure) -> pending.remove(wait));
        ConnectionState ended = terminalState;
        if (ended != null) {
            wait.completeExceptionally(failureFor(ended));
        }
        return wait;
    }

    /** As {@link #track}, and runs {@code recheck} each time the client reconnects meanwhile. */
    public <T> CompletableFuture<T> track(CompletableFuture<T> wait, Runnable recheck) {
        recheckOnReconnect.put(wait, recheck);
        wait.whenComplete((value, failure) -> recheckOnReconnect.remove(wait));
        return track(wait);
    }

    /** The state that ended the session, or null while it may still be alive. */
    public ConnectionState terminalState() {
        return terminalState;
    }

    private void onState(ConnectionState state) {
        if (state == ConnectionState.RECONNECTED) {
            recheckOnReconnect.values().forEach(Runnable::run);
        }
        if (!state.isTerminal()) {
            return;
        }
        terminalState = state;
        for (CompletableFuture<?> wait : pending) {
            wait.completeExceptionally(failureFor(state));
        }
    }

    private static WardenException failureFor(ConnectionState state) {
        return state == ConnectionState.LOST
                ? new WardenException.SessionExpiredException("session lost while waiting")
                : new WardenException.ClientClosedException();
    }
}
