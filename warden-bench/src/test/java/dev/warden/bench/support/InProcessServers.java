package dev.warden.bench.support;

import dev.warden.server.WardenServer;
import dev.warden.server.config.ServerConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;
import org.junit.jupiter.params.provider.Arguments;

/** Warden and Apache ZooKeeper standalone servers in this JVM, for the load generator's tests. */
public final class InProcessServers {
    private InProcessServers() {
    }

    /**
     * Both servers, named, for a parameterized test:
     * {@code @MethodSource("dev.warden.bench.support.InProcessServers#both")}.
     */
    public static Stream<Arguments> both() {
        Supplier<Server> warden = InProcessServers::warden;
        Supplier<Server> apache = InProcessServers::apache;
        return Stream.of(Arguments.of("warden", warden), Arguments.of("apache", apache));
    }

    /** A running server; closing it stops it and deletes its data. */
    public interface Server extends AutoCloseable {
        String connectString();

        @Override
        void close();
    }

    public static Server warden() {
        Path dir = tempDir("bench-warden");
        try {
            WardenServer server = WardenServer.start(ServerConfig.builder()
                    .clientPort(0).dataDir(dir).maxClientCnxns(0).build());
            return new Server() {
                @Override
                public String connectString() {
                    return server.connectString();
                }

                @Override
                public void close() {
                    server.close();
                    deleteTree(dir);
                }
            };
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static Server apache() {
        Path dir = tempDir("bench-apache");
        try {
            ZooKeeperServer server = new ZooKeeperServer(dir.toFile(), dir.toFile(), 2000);
            ServerCnxnFactory factory = ServerCnxnFactory.createFactory(new InetSocketAddress("127.0.0.1", 0), 0);
            factory.startup(server);
            int port = factory.getLocalPort();
            return new Server() {
                @Override
                public String connectString() {
                    return "127.0.0.1:" + port;
                }

                @Override
                public void close() {
                    factory.shutdown();
                    server.shutdown();
                    deleteTree(dir);
                }
            };
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static Path tempDir(String prefix) {
        try {
            return Files.createTempDirectory(prefix);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temp directory left behind is harmless
        }
    }
}
