package dev.warden.cli.shell;

import dev.warden.client.BlockingClient;
import dev.warden.client.ConnectionState;
import dev.warden.client.StateListener;
import dev.warden.client.WardenClient;
import dev.warden.client.WardenException;
import dev.warden.client.Watcher;
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
    /** How long connect waits for a first server to answer before it gives up. */
    static final long CONNECT_WAIT_MS = 10_000;
    /** The largest frame the client takes, as zkCli takes it: -Djute.maxbuffer (default 0xfffff). */
    static final String JUTE_MAX_BUFFER = "jute.maxbuffer";

    private final PrintStream out;
    private final int sessionTimeoutMs;
    /** TLS and SASL for every connection of this shell. */
    private final ShellClientConfig clientConfig;
    private volatile Consumer<String> eventSink;
    private volatile boolean printWatches = true;
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

    /** Prints each event it receives, unless printwatches is off: the watcher commands pass it for {@code -w}. */
    Watcher printingWatcher() {
        return event -> {
            if (printWatches) {
                eventSink.accept(Formats.watchEvent(event));
            }
        };
    }

    /** zkCli's printwatches: whether watch events are printed. */
    void setPrintWatches(boolean on) {
        printWatches = on;
    }

    boolean printWatches() {
        return printWatches;
    }

    /**
     * Closes the current session (if any) and opens one to {@code newConnectString}, waiting up
     * to the session timeout for it. On failure the shell stays unconnected.
     */
    void connect(String newConnectString) {
        close();
        connectString = newConnectString;
        Link candidate = new Link();
        long waitMs = Math.min(CONNECT_WAIT_MS, sessionTimeoutMs + 1000L);
        try {
            candidate.client = WardenClient.builder()
                    .connectString(newConnectString)
                    .sessionTimeout(Duration.ofMillis(sessionTimeoutMs))
                    .maxFrameBytes(maxFrameBytes())
                    .stateListener(candidate)
                    .tls(clientConfig.tls())
                    .sasl(clientConfig.sasl())
                    .build();
        } catch (IllegalArgumentException e) {
            throw new ShellException("Invalid connect string " + newConnectString + ": " + e.getMessage());
        }
        try {
            boolean answered = candidate.connected.await(waitMs, TimeUnit.MILLISECONDS);
            if (candidate.state == ConnectionState.AUTH_FAILED) {
                candidate.client.close();
                throw new ShellException("Unable to connect to " + newConnectString
                        + ": AUTH_FAILED, the server refused this shell's SASL authentication");
            }
            if (!answered) {
                // no session was ever made: the client goes quietly, with no "expired" event for it
                candidate.client.close();
                throw new ShellException("Unable to connect to " + newConnectString + ": no server answered within "
                        + (waitMs % 1000 == 0 ? waitMs / 1000 + " s" : waitMs + " ms") + " (is one running there?)");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            candidate.client.close();
            throw new ShellException("Interrupted while connecting to " + newConnectString);
        }
        candidate.blocking = candidate.client.blocking(Duration.ofMillis(sessionTimeoutMs));
        link = candidate;
    }

    /** -Djute.maxbuffer, as zkCli reads it, so nodes with many children or large data can be read. */
    static int maxFrameBytes() {
        String text = System.getProperty(JUTE_MAX_BUFFER);
        if (text == null) {
            return 0xfffff;
        }
        try {
            return Math.max(1024, Integer.decode(text.trim()));
        } catch (NumberFormatException e) {
            throw new ShellException("-Djute.maxbuffer=" + text + " is not a number of bytes");
        }
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
        private final java.util.concurrent.CountDownLatch connected = new java.util.concurrent.CountDownLatch(1);
        private WardenClient client;
        private BlockingClient blocking;

        @Override
        public void stateChanged(ConnectionState newState) {
            ConnectionState previous = state;
            state = newState;
            if (newState == ConnectionState.CONNECTED || newState == ConnectionState.AUTH_FAILED) {
                connected.countDown();
            }
            // The first CONNECTED and our own CLOSED are expected, and a link that never connected
            // had no session to lose; only surprises on a live session are worth a line.
            if (newState != ConnectionState.CLOSED && previous != null && link == this) {
                eventSink.accept(Formats.stateEvent(newState));
            }
        }
    }
}
