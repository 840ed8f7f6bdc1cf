package dev.warden.cli;

/** What the server command needs from a started server. */
public interface RunningServer extends AutoCloseable {
    /** host:port clients should connect to. */
    String connectString();

    /** Stops the server, flushing pending log writes first. Idempotent. */
    @Override
    void close();
}
