package dev.warden.bench.resources;

import dev.warden.server.WardenServer;
import dev.warden.server.config.ServerConfig;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Warden with its defaults (fsync on; snapCount as the probe is told, 100,000 by default) on a free loopback port, except that
 * one session may hold any number of watches, as in Apache ZooKeeper, so the probe's single
 * watching session is not cut off past 1M.
 */
final class WardenEmbedded implements EmbeddedServer {
    private final WardenServer server;

    private WardenEmbedded(WardenServer server) {
        this.server = server;
    }

    static WardenEmbedded start(Path dataDir, int snapCount) throws IOException {
        ServerConfig config = ServerConfig.builder()
                .dataDir(dataDir)
                .dataLogDir(dataDir)
                .clientPort(0)
                .maxClientCnxns(0)
                .maxWatchesPerSession(Integer.MAX_VALUE)
                .snapCount(snapCount)
                .build();
        return new WardenEmbedded(WardenServer.start(config));
    }

    @Override
    public String connectString() {
        return server.connectString();
    }

    @Override
    public Path snapshotNow() throws IOException {
        return server.snapshotNow();
    }

    @Override
    public void close() {
        server.close();
    }
}
