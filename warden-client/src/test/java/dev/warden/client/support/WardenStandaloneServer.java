package dev.warden.client.support;

import dev.warden.server.WardenServer;
import dev.warden.server.config.ServerConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A Warden standalone server on a loopback port, in this JVM, set up like {@link ApacheStandaloneServer}. */
public final class WardenStandaloneServer implements TargetServer {
    private final ServerConfig baseConfig;
    private int port;
    private WardenServer server;

    public WardenStandaloneServer() {
        try {
            Path dataDir = Files.createTempDirectory("warden-client-warden");
            baseConfig = ServerConfig.builder().dataDir(dataDir).clientPort(0)
                    .tickTimeMs(ApacheStandaloneServer.TICK_MS).maxClientCnxns(1000).build();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        restart();
    }

    @Override
    public String connectString() {
        return "127.0.0.1:" + port;
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public void stop() {
        if (server != null) {
            server.close();
            server = null;
        }
    }

    @Override
    public void restart() {
        stop();
        try {
            server = WardenServer.start(baseConfig.toBuilder().clientPort(port).build());
            port = server.clientPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        stop();
    }
}
