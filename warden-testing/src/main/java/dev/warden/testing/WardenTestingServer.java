package dev.warden.testing;

import dev.warden.server.WardenServer;
import dev.warden.server.config.ServerConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.function.UnaryOperator;

/**
 * A standalone Warden server inside the test's JVM, shaped like Curator's {@code TestingServer}:
 * a connect string, {@link #stop()}, {@link #start()}, {@link #restart()} (same port, same data)
 * and {@link #close()}, which also discards the data it kept for itself.
 *
 * <pre>{@code
 * try (WardenTestingServer server = WardenTestingServer.start()) {
 *     ZooKeeper zk = new ZooKeeper(server.connectString(), 10_000, event -> { });
 * }
 * }</pre>
 *
 * <p>By default it runs in memory: its data directory is on an in-memory file system of its own
 * (Jimfs, in the JVM's heap), so nothing is written to any real file system, and the log is never
 * fsynced. The server runs its real storage code on that directory, so {@link #restart()}
 * recovers what was written; {@link #close()} frees it. It is ready in a few milliseconds once the
 * JVM has loaded its classes. {@code builder().inMemory(false)} gives a server that writes and
 * fsyncs in a temporary directory on disk like a real one, {@code builder().dataDirectory(dir)}
 * one whose data stays in {@code dir}.
 */
public final class WardenTestingServer implements AutoCloseable {
    private final TestDirectory directory;
    private final int port;
    private final boolean inMemory;
    private final UnaryOperator<ServerConfig.Builder> customizer;
    private WardenServer running;
    private boolean closed;

    private WardenTestingServer(Builder builder) {
        this.inMemory = builder.inMemory;
        this.directory = builder.dataDirectory != null ? TestDirectory.given(builder.dataDirectory)
                : inMemory ? TestDirectory.inMemory() : TestDirectory.temporaryOnDisk();
        this.port = builder.port > 0 ? builder.port : LoopbackPorts.pick();
        this.customizer = builder.customizer;
    }

    /** Starts an in-memory server on a free port. */
    public static WardenTestingServer start() {
        return builder().start();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Starts the server again after {@link #stop()}; does nothing if it runs. */
    public synchronized WardenTestingServer startServing() {
        requireOpen();
        if (running == null) {
            try {
                running = WardenServer.start(config());
            } catch (IOException e) {
                throw new UncheckedIOException("the test server on port " + port + " did not start", e);
            }
        }
        return this;
    }

    private ServerConfig config() {
        return customizer.apply(TestServerSettings.base(directory.path(), port, inMemory)).build();
    }

    /** Stops serving (clients lose their connection) and keeps the data for a later start. */
    public synchronized void stop() {
        if (running != null) {
            running.close();
            running = null;
        }
    }

    /** Stops and starts again on the same port and data: sessions survive if the restart is quick. */
    public synchronized void restart() {
        stop();
        startServing();
    }

    public synchronized boolean isRunning() {
        return running != null;
    }

    /** {@code 127.0.0.1:port}. */
    public String connectString() {
        return "127.0.0.1:" + port;
    }

    public int port() {
        return port;
    }

    /**
     * Where the server keeps its log and snapshots. In memory (without a given directory) this is a
     * path on the server's in-memory file system: {@link java.nio.file.Files} reads it, but it has
     * no {@link Path#toFile() File}.
     */
    public Path dataDirectory() {
        return directory.path();
    }

    /**
     * Whether it was built in memory: no fsync, and the data on an in-memory file system unless
     * a directory was given.
     */
    public boolean inMemory() {
        return inMemory;
    }

    /** The running server, for what this class does not wrap; null while stopped. */
    public synchronized WardenServer server() {
        return running;
    }

    /**
     * Stops the server and discards the data if this class chose where it lives (frees the
     * in-memory file system or deletes the temporary directory); a given directory is kept.
     * Idempotent.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        stop();
        closed = true;
        directory.close();
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("the test server on port " + port + " is closed");
        }
    }

    /** Settings of a {@link WardenTestingServer}; {@link #start()} starts it. */
    public static final class Builder {
        private int port;
        private Path dataDirectory;
        private boolean inMemory = true;
        private UnaryOperator<ServerConfig.Builder> customizer = UnaryOperator.identity();

        private Builder() {
        }

        /** The client port; 0 (the default) picks a free one, kept across restarts. */
        public Builder port(int value) {
            if (value < 0 || value > 65535) {
                throw new IllegalArgumentException("port must be 0 (pick a free one) or 1-65535, not " + value);
            }
            this.port = value;
            return this;
        }

        /**
         * Keep the data here (created if missing, not deleted on close; any file system) instead of
         * in memory or a temporary directory. With {@code inMemory} left true the log is still not
         * fsynced.
         */
        public Builder dataDirectory(Path value) {
            this.dataDirectory = value;
            return this;
        }

        /**
         * True (default): the data on an in-memory file system, no fsync. False: a temporary
         * directory on disk (under {@code java.io.tmpdir}), fsync on.
         */
        public Builder inMemory(boolean value) {
            this.inMemory = value;
            return this;
        }

        /** Changes any server setting beyond the test defaults (e.g. {@code b -> b.superDigest(...)}). */
        public Builder configure(UnaryOperator<ServerConfig.Builder> value) {
            this.customizer = value;
            return this;
        }

        /** Builds the server without starting it; {@link WardenTestingServer#startServing()} starts it. */
        public WardenTestingServer build() {
            return new WardenTestingServer(this);
        }

        public WardenTestingServer start() {
            WardenTestingServer server = build();
            try {
                return server.startServing();
            } catch (RuntimeException e) {
                server.close();
                throw e;
            }
        }
    }
}
