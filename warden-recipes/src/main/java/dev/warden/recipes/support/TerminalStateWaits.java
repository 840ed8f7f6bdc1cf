package dev.warden.recipes.support;

import dev.warden.client.ConnectionState;
import dev.warden.client.WardenClient;
import dev.warden.client.WardenException;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Fails a recipe's pending waits when its client's session ends. A wait that sits on a watch
 * has no request in flight, so nothing else would ever complete it once the session is LOST or
 * the client CLOSED. One instance per recipe object: it registers a single state listener.
 */
public final class TerminalStateWaits {
    private final Set<CompletableFuture<?>> pending = ConcurrentHashMap.newKeySet();
    private volatile ConnectionState terminalState;

    public TerminalStateWaits(WardenClient client) {
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

    /** The state that ended the session, or null while it may still be alive. */
    public ConnectionState terminalState() {
        return terminalState;
    }

    private void onState(ConnectionState state) {
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
