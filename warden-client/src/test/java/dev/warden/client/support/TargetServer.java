package dev.warden.client.support;

/**
 * A server (or ensemble) the client tests run against. Today: Apache ZooKeeper in process;
 * a Warden implementation can be added without touching the tests.
 */
public interface TargetServer extends AutoCloseable {
    /** host:port list (no chroot) reaching the server(s). */
    String connectString();

    /** The loopback port (for proxies placed in front of the server). */
    int port();

    /** Stops the server, keeping its data and port, so it can be restarted. */
    void stop();

    /** Starts it again on the same port with the same data. */
    void restart();

    @Override
    void close();
}
