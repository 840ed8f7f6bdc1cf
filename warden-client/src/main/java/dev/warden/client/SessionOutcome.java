package dev.warden.client;

import dev.warden.protocol.ErrorCode;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What callers see of the session's state, from any thread: the state listeners, the
 * first-connect and termination futures, and the error a request gets once the session has
 * ended. The event loop changes it; listeners and futures run on the completion executor.
 */
final class SessionOutcome {
    private static final Logger LOG = LoggerFactory.getLogger(SessionDriver.class);

    private final SerialExecutor completions;
    private final ClientMetrics metrics;
    private final Runnable onTerminated;
    private final List<StateListener> listeners = new CopyOnWriteArrayList<>();
    private final CompletableFuture<Void> firstConnect = new CompletableFuture<>();
    private final CompletableFuture<Void> terminated = new CompletableFuture<>();
    private volatile boolean terminal;
    private volatile ConnectionState finalState;

    SessionOutcome(SerialExecutor completions, ClientMetrics metrics, Runnable onTerminated) {
        this.completions = completions;
        this.metrics = metrics;
        this.onTerminated = onTerminated;
    }

    void addListener(StateListener listener) {
        listeners.add(listener);
    }

    CompletableFuture<Void> firstConnect() {
        return firstConnect;
    }

    CompletableFuture<Void> terminated() {
        return terminated;
    }

    /** Whether the session has ended: requests fail at once with {@link #terminalError()}. */
    boolean terminal() {
        return terminal;
    }

    WardenException terminalError() {
        return switch (finalState) {
            case LOST -> new WardenException.SessionExpiredException("session lost");
            case AUTH_FAILED -> new WardenException(ErrorCode.AUTH_FAILED, null,
                    "the server refused this client's SASL authentication");
            default -> new WardenException.ClientClosedException();
        };
    }

    void publish(ConnectionState state, long sessionId) {
        LOG.debug("session 0x{} is {}", Long.toHexString(sessionId), state);
        metrics.stateChanged(state);
        for (StateListener listener : listeners) {
            completions.execute(() -> listener.stateChanged(state));
        }
    }

    /** The session's first connection is ready. */
    void firstConnected() {
        completions.execute(() -> firstConnect.complete(null));
    }

    /** The session is ending in {@code finalState}: from now on requests fail at once. */
    void ending(ConnectionState finalState) {
        this.finalState = finalState;
        terminal = true;
    }

    /** The session has ended: says so to the listeners, then completes the futures and runs onTerminated. */
    void ended(ConnectionState finalState, WardenException cause, long sessionId) {
        publish(finalState, sessionId);
        completions.execute(() -> {
            firstConnect.completeExceptionally(cause);
            if (finalState == ConnectionState.CLOSED) {
                terminated.complete(null);
            } else {
                terminated.completeExceptionally(cause);
            }
        });
        completions.execute(onTerminated);
    }
}
