package dev.warden.bench.resources;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.SyncRequestProcessor;
import org.apache.zookeeper.server.ZooKeeperServer;

/**
 * Apache ZooKeeper's standalone server (the baseline) with its defaults (fsync on; snapCount as
 * the probe is told, 100,000 by default) on a free loopback port: the same classes ZooKeeperServerMain wires together.
 */
final class ApacheEmbedded implements EmbeddedServer {
    private static final int TICK_TIME_MS = 2000;
    private static final int MAX_CONNECTIONS_PER_HOST = 0;

    private final ZooKeeperServer server;
    private final ServerCnxnFactory connections;

    private ApacheEmbedded(ZooKeeperServer server, ServerCnxnFactory connections) {
        this.server = server;
        this.connections = connections;
    }

    static ApacheEmbedded start(Path dataDir, int snapCount) throws IOException {
        // What zookeeper.snapCount sets; read when the sync processor starts.
        SyncRequestProcessor.setSnapCount(snapCount);
        File dir = dataDir.toFile();
        ZooKeeperServer server = new ZooKeeperServer(dir, dir, TICK_TIME_MS);
        ServerCnxnFactory connections = ServerCnxnFactory.createFactory(
                new InetSocketAddress("127.0.0.1", 0), MAX_CONNECTIONS_PER_HOST);
        try {
            // Loads the snapshot and replays the log before it returns, like ZooKeeperServerMain.
            connections.startup(server);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            connections.shutdown();
            throw new IOException("interrupted while starting Apache ZooKeeper", e);
        }
        return new ApacheEmbedded(server, connections);
    }

    @Override
    public String connectString() {
        return "127.0.0.1:" + connections.getLocalPort();
    }

    @Override
    public Path snapshotNow() throws IOException {
        return server.takeSnapshot(true).toPath();
    }

    @Override
    public void close() {
        connections.shutdown();
        server.shutdown();
    }
}
