package dev.warden.cli.zookeeper;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;

/** A real Apache ZooKeeper 3.9 standalone server in this JVM, writing its files into a data directory. */
final class ApacheServer implements AutoCloseable {
    private final ZooKeeperServer server;
    private final ServerCnxnFactory factory;

    ApacheServer(Path dataDir) throws IOException, InterruptedException {
        server = new ZooKeeperServer(dataDir.toFile(), dataDir.toFile(), 2000);
        factory = ServerCnxnFactory.createFactory(new InetSocketAddress("127.0.0.1", 0), 100);
        factory.startup(server);
    }

    String connectString() {
        return "127.0.0.1:" + factory.getLocalPort();
    }

    /** Writes a snapshot now (later writes go to a new log file). */
    void takeSnapshot() throws IOException {
        server.takeSnapshot();
    }

    /**
     * Copies the data directory as it is on disk now, while the server runs: what a crash (kill -9,
     * power loss) would leave, since ZooKeeper fsyncs every logged write before acknowledging it.
     * A clean shutdown writes a last snapshot holding everything, which would leave the log unread.
     */
    static void copyFiles(Path from, Path to) throws IOException {
        try (java.util.stream.Stream<Path> paths = java.nio.file.Files.walk(from)) {
            for (Path path : paths.toList()) {
                java.nio.file.Files.copy(path, to.resolve(from.relativize(path).toString()));
            }
        }
    }

    /** Stops the server; its sessions stay open in its files. */
    @Override
    public void close() {
        factory.shutdown();
        server.shutdown();
    }
}
