package dev.warden.cli.shell;

import dev.warden.client.BlockingClient;
import dev.warden.client.ConnectionState;
import dev.warden.client.StateListener;
import dev.warden.client.WardenClient;
import dev.warden.client.WardenException;
import dev.warden.client.Watcher;
import dev.warden.protocol.ErrorCode;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * The shell's link to the ensemble: at most one client at a time, replaced by {@code connect}
 * and dropped by {@code close}. Watch events and connection changes arrive on the client's
 * thread and go to the event sink, which in interactive mode prints above the prompt.
 */
final class ShellSession implements AutoCloseable {
    private static final long COMPLETION_WAIT_MS = 2000;

    private final PrintStream out;
    private final int sessionTimeoutMs;
    /** TLS and SASL for every connection of this shell. */
    private final ShellClientConfig clientConfig;
    private volatile Consumer<String> eventSink;
    private Link link;
    private String connectString;

    ShellSession(PrintStream out, int sessionTimeoutMs, ShellClientConfig clientConfig) {
        this.out = out;
        this.sessionTimeoutMs = sessionTimeoutMs;
        this.clientConfig = clientConfig;
        this.eventSink = out::println;
    }

    PrintStream out() {
        return out;
    }

    void setEventSink(Consumer<String> sink) {
        this.eventSink = sink;
    }

    /** Prints each event it receives: the watcher commands pass for {@code -w}. */
    Watcher printingWatcher() {
        return event -> eventSink.accept(Formats.watchEvent(event));
    }

    /**
     * Closes the current session (if any) and opens one to {@code newConnectString}, waiting up
     * to the session timeout for it. On failure the shell stays unconnected.
     */
    void connect(String newConnectString) {
        close();
        connectString = newConnectString;
        Link candidate = new Link();
        try {
            candidate.client = WardenClient.builder()
                    .connectString(newConnectString)
                    .sessionTimeout(Duration.ofMillis(sessionTimeoutMs))
                    .stateListener(candidate)
                    .tls(clientConfig.tls())
                    .sasl(clientConfig.sasl())
                    .connect()
                    .get(sessionTimeoutMs + 1000L, TimeUnit.MILLISECONDS);
        } catch (IllegalArgumentException e) {
            throw new ShellException("Invalid connect string " + newConnectString + ": " + e.getMessage());
        } catch (ExecutionException e) {
            throw new ShellException("Unable to connect to " + newConnectString
                    + (e.getCause() instanceof WardenException refused && refused.code() == ErrorCode.AUTH_FAILED
                            ? ": " + refused.getMessage() : ""));
        } catch (TimeoutException e) {
            throw new ShellException("Unable to connect to " + newConnectString);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ShellException("Interrupted while connecting to " + newConnectString);
        }
        candidate.blocking = candidate.client.blocking(Duration.ofMillis(sessionTimeoutMs));
        link = candidate;
    }

    /** The blocking client, or a "Not connected" failure after {@code close} or a failed connect. */
    BlockingClient client() {
        Link current = link;
        if (current == null) {
            throw new ShellException("Not connected");
        }
        if (current.state != null && current.state.isTerminal()) {
            throw new WardenException.SessionExpiredException("session expired; use connect to start a new one");
        }
        return current.blocking;
    }

    /**
     * Child names for tab completion: empty when not connected, the node is missing or the
     * server takes longer than a person would wait at a tab key.
     */
    List<String> childrenForCompletion(String parent) {
        Link current = link;
        if (current == null) {
            return List.of();
        }
        try {
            return current.client.getChildren(parent).get(COMPLETION_WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            return List.of();
        }
    }

    /** The connect string of the last connect, even if it failed (for {@code connect} with no argument). */
    String connectString() {
        return connectString;
    }

    /** For the prompt: {@code host:port(CONNECTED)} and the like. */
    String describe() {
        String where = connectString == null ? "" : connectString;
        Link current = link;
        if (current == null) {
            return where + "(CLOSED)";
        }
        ConnectionState state = current.state;
        String shown = state == null ? "CONNECTING" : state == ConnectionState.RECONNECTED ? "CONNECTED" : state.name();
        return where + "(" + shown + ")";
    }

    @Override
    public void close() {
        Link current = link;
        link = null;
        if (current != null) {
            current.client.close();
        }
    }

    /** One client and the state it last reported; a new connect gets a new link. */
    private final class Link implements StateListener {
        private volatile ConnectionState state;
        private WardenClient client;
        private BlockingClient blocking;

        @Override
        public void stateChanged(ConnectionState newState) {
            ConnectionState previous = state;
            state = newState;
            // The first CONNECTED and our own CLOSED are expected; only surprises are worth a line.
            if (newState != ConnectionState.CLOSED && !(newState == ConnectionState.CONNECTED && previous == null)) {
                eventSink.accept(Formats.stateEvent(newState));
            }
        }
    }
}
