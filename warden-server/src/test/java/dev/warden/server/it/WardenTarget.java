package dev.warden.server.it;

import dev.warden.server.WardenServer;
import dev.warden.server.config.ServerConfig;
import java.nio.file.Path;
import java.util.Set;

/** A Warden server in this JVM, configured like {@link ApacheTarget} so the suites expect the same. */
final class WardenTarget implements TargetServer {
    private final ServerConfig baseConfig;
    private WardenServer server;

    private WardenTarget(ServerConfig baseConfig) {
        this.baseConfig = baseConfig;
    }

    static WardenTarget start(Path dataDir, String superDigest) throws Exception {
        ServerConfig config = ServerConfig.builder()
                .dataDir(dataDir)
                .clientPort(0)
                .tickTimeMs(ApacheTarget.TICK_TIME_MS)
                .minSessionTimeoutMs(ApacheTarget.MIN_SESSION_TIMEOUT_MS)
                .maxSessionTimeoutMs(ApacheTarget.MAX_SESSION_TIMEOUT_MS)
                .containerCheckIntervalMs(ApacheTarget.CONTAINER_CHECK_INTERVAL_MS)
                .fourLetterWordWhitelist(Set.of("*"))
                .maxClientCnxns(500)
                .superDigest(superDigest)
                .build();
        WardenTarget target = new WardenTarget(config);
        target.server = WardenServer.start(config);
        return target;
    }

    @Override
    public String connectString() {
        return server.connectString();
    }

    @Override
    public void restart() throws Exception {
        int port = server.clientPort();
        server.close();
        server = WardenServer.start(baseConfig.toBuilder().clientPort(port).build());
    }

    @Override
    public String name() {
        return "warden";
    }

    @Override
    public void close() {
        server.close();
    }
}
