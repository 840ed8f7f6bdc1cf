package dev.warden.client.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;

/** An Apache ZooKeeper standalone server on a loopback port, in this JVM. */
public final class ApacheStandaloneServer implements TargetServer {
    /** Short ticks keep session timeouts (2..20 ticks) small enough for expiry tests. */
    public static final int TICK_MS = 100;

    private final Path dataDir;
    private int port;
    private ZooKeeperServer server;
    private ServerCnxnFactory factory;

    public ApacheStandaloneServer() {
        try {
            dataDir = Files.createTempDirectory("warden-client-zk");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        start();
    }

    private void start() {
        try {
            server = new ZooKeeperServer(dataDir.toFile(), dataDir.toFile(), TICK_MS);
            factory = ServerCnxnFactory.createFactory(new InetSocketAddress("127.0.0.1", port), 1000);
            factory.startup(server);
            port = factory.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public int port() {
        return port;
    }

    @Override
    public String connectString() {
        return "127.0.0.1:" + port;
    }

    @Override
    public void stop() {
        if (factory != null) {
            factory.shutdown();
            server.shutdown();
            factory = null;
        }
    }

    @Override
    public void restart() {
        stop();
        start();
    }

    @Override
    public void close() {
        stop();
        try (Stream<Path> files = Files.walk(dataDir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort cleanup of a temp dir
        }
    }
}
