package dev.warden.server.it;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.zookeeper.server.ContainerManager;
import org.apache.zookeeper.server.NIOServerCnxnFactory;
import org.apache.zookeeper.server.RequestProcessor;
import org.apache.zookeeper.server.ZooKeeperServer;

/**
 * An in-process standalone Apache ZooKeeper 3.9 server, the reference the suites are checked
 * against. Apache reads several settings from JVM-wide system properties, so those are set once
 * here with the values every suite expects (TTL nodes on, fast container reaping, all 4lw, one
 * super digest).
 */
final class ApacheTarget implements TargetServer {
    static final int TICK_TIME_MS = 200;
    static final int MIN_SESSION_TIMEOUT_MS = 400;
    static final int MAX_SESSION_TIMEOUT_MS = 20_000;
    static final int CONTAINER_CHECK_INTERVAL_MS = 100;
    private static final int MAX_CLIENT_CONNECTIONS = 500;

    private final Path dataDir;
    private int port;
    private ExposedServer server;
    private NIOServerCnxnFactory factory;
    private ContainerManager containerManager;

    private ApacheTarget(Path dataDir) {
        this.dataDir = dataDir;
    }

    static ApacheTarget start(Path dataDir, String superDigest) throws Exception {
        configureJvm(superDigest);
        ApacheTarget target = new ApacheTarget(dataDir);
        target.startServer(0);
        return target;
    }

    /** The JVM-wide settings every in-process Apache server here expects (also {@link Apache3Target}). */
    static void configureJvm(String superDigest) {
        String previous = System.getProperty("zookeeper.DigestAuthenticationProvider.superDigest");
        if (previous != null && !previous.equals(superDigest)) {
            throw new IllegalStateException("another super digest is already configured in this JVM");
        }
        System.setProperty("zookeeper.DigestAuthenticationProvider.superDigest", superDigest);
        System.setProperty("zookeeper.extendedTypesEnabled", "true");
        System.setProperty("znode.container.checkIntervalMs", Integer.toString(CONTAINER_CHECK_INTERVAL_MS));
        System.setProperty("zookeeper.4lw.commands.whitelist", "*");
        System.setProperty("zookeeper.admin.enableServer", "false");
        checkSuperDigestTaken(superDigest);
    }

    /**
     * ZooKeeper reads the super digest once, when its DigestAuthenticationProvider class is first
     * loaded. A test in the same JVM that touched that class earlier (generateDigest, say) fixed it
     * to nothing, and every Apache server after would refuse the super user: say so at once, rather
     * than as a differential mismatch or a NOAUTH far away. Tests make digests with Digests.idFor.
     */
    private static void checkSuperDigestTaken(String superDigest) {
        try {
            java.lang.reflect.Field field = org.apache.zookeeper.server.auth.DigestAuthenticationProvider.class
                    .getDeclaredField("superDigest");
            field.setAccessible(true);
            if (!superDigest.equals(field.get(null))) {
                throw new IllegalStateException("Apache ZooKeeper's DigestAuthenticationProvider was loaded before the"
                        + " super digest was set in this JVM (a test called it directly?): use Digests.idFor instead");
            }
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read Apache ZooKeeper's super digest", e);
        }
    }

    private void startServer(int requestedPort) throws IOException, InterruptedException {
        File dir = Files.createDirectories(dataDir).toFile();
        server = new ExposedServer(dir, TICK_TIME_MS);
        server.setMinSessionTimeout(MIN_SESSION_TIMEOUT_MS);
        server.setMaxSessionTimeout(MAX_SESSION_TIMEOUT_MS);
        factory = new NIOServerCnxnFactory();
        factory.configure(new InetSocketAddress("127.0.0.1", requestedPort), MAX_CLIENT_CONNECTIONS);
        factory.startup(server);
        port = factory.getLocalPort();
        // ZooKeeperServerMain normally runs the container manager; a bare server does not.
        containerManager = new ContainerManager(server.getZKDatabase(), server.pipeline(),
            CONTAINER_CHECK_INTERVAL_MS, 10_000, 0);
        containerManager.start();
    }

    private void stopServer() {
        containerManager.stop();
        factory.shutdown();
        server.shutdown();
    }

    /** The running Apache server, for tests that attach ZooKeeper's own tools to it (its AdminServer). */
    ZooKeeperServer server() {
        return server;
    }

    @Override
    public String connectString() {
        return "127.0.0.1:" + port;
    }

    @Override
    public void restart() throws Exception {
        stopServer();
        startServer(port);
    }

    @Override
    public String name() {
        return "apache";
    }

    @Override
    public void close() {
        stopServer();
    }

    /** Gives the container manager access to the request pipeline, as ZooKeeperServerMain does. */
    private static final class ExposedServer extends ZooKeeperServer {
        ExposedServer(File dir, int tickTimeMs) throws IOException {
            super(dir, dir, tickTimeMs);
        }

        RequestProcessor pipeline() {
            return firstProcessor;
        }
    }
}
