package dev.warden.server.it;

/** A ZooKeeper-protocol server the conformance suites run against (Apache ZooKeeper or Warden). */
interface TargetServer extends AutoCloseable {
    /** host:port for ZooKeeper clients; stays the same across {@link #restart()}. */
    String connectString();

    /** Stops the server and starts it again on the same data directory and port. */
    void restart() throws Exception;

    /** The target's name as used in {@code -Dwarden.targets}. */
    String name();

    @Override
    void close() throws Exception;
}
