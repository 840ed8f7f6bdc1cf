package dev.warden.testing.curator;

import dev.warden.testing.WardenTestingServer;
import java.io.Closeable;
import java.io.File;
import java.nio.file.FileSystems;
import java.nio.file.Path;

/**
 * A Warden server with the constructors and methods of Curator's
 * {@code org.apache.curator.test.TestingServer}, so a test written against Curator's class runs
 * against Warden by changing its import to this package. Ports and temporary directories behave
 * as in Curator's: port -1 or 0 picks a free one, a given directory is kept and a temporary one
 * is deleted on {@link #close()}. The server runs in memory when no directory is given (its data
 * on an in-memory file system, nothing written to disk), and on disk with fsync in a given one.
 * One difference follows: an in-memory server has no directory on disk for
 * {@link #getTempDirectory()} to return.
 */
public final class TestingServer implements Closeable {
    private final WardenTestingServer server;

    /** Starts a server on a free port. */
    public TestingServer() throws Exception {
        this(-1, null, true);
    }

    public TestingServer(boolean start) throws Exception {
        this(-1, null, start);
    }

    public TestingServer(int port) throws Exception {
        this(port, null, true);
    }

    public TestingServer(int port, boolean start) throws Exception {
        this(port, null, start);
    }

    public TestingServer(int port, File tempDirectory) throws Exception {
        this(port, tempDirectory, true);
    }

    public TestingServer(int port, File tempDirectory, boolean start) throws Exception {
        WardenTestingServer.Builder builder = WardenTestingServer.builder().port(Math.max(0, port));
        if (tempDirectory != null) {
            builder.dataDirectory(tempDirectory.toPath()).inMemory(false);
        }
        this.server = builder.build();
        if (start) {
            server.startServing();
        }
    }

    public int getPort() {
        return server.port();
    }

    /**
     * The directory holding the server's data: the one given to the constructor. A server made
     * without one keeps its data in memory, in no directory on disk; for it this throws
     * {@link UnsupportedOperationException} naming the constructor that gives it one.
     */
    public File getTempDirectory() {
        Path dir = server.dataDirectory();
        if (dir.getFileSystem() != FileSystems.getDefault()) {
            throw new UnsupportedOperationException("this TestingServer keeps its data in memory, in no directory on"
                    + " disk; construct it with TestingServer(port, tempDirectory) for one whose data is in a directory");
        }
        return dir.toFile();
    }

    public String getConnectString() {
        return server.connectString();
    }

    /** Starts the server (after {@code new TestingServer(false)} or {@link #stop()}). */
    public void start() throws Exception {
        server.startServing();
    }

    /** Stops the server; its data stays for {@link #start()} or {@link #restart()}. */
    public void stop() throws Exception {
        server.stop();
    }

    /** Stops and starts the server on the same port and data. */
    public void restart() throws Exception {
        server.restart();
    }

    /** Stops the server and discards its data unless it is in a directory given to the constructor. */
    @Override
    public void close() {
        server.close();
    }

    /** The Warden server underneath, for what Curator's class does not offer. */
    public WardenTestingServer warden() {
        return server;
    }
}
