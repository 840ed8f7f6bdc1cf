package dev.warden.server;

/**
 * A standalone Warden server: data tree, sessions, watches, durable log and snapshots, and the
 * client port. Several may run in one JVM. (Being filled in: this revision fixes the API only.)
 */
public final class WardenServer implements AutoCloseable {
    private final ServerConfig config;

    private WardenServer(ServerConfig config) {
        this.config = config;
    }

    /** Recovers from the data directory, binds the client port and returns once serving. */
    public static WardenServer start(ServerConfig config) throws java.io.IOException {
        throw new UnsupportedOperationException("not yet");
    }

    /** The bound client port (useful when the config asked for port 0). */
    public int clientPort() {
        throw new UnsupportedOperationException("not yet");
    }

    /** host:port for clients. */
    public String connectString() {
        return config.clientPortAddress() + ":" + clientPort();
    }

    /** Stops accepting, flushes pending log writes, closes connections and files. Idempotent. */
    @Override
    public void close() {
    }
}
