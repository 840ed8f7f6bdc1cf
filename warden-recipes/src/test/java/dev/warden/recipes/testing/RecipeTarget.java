package dev.warden.recipes.testing;

import dev.warden.client.WardenClient;
import dev.warden.server.ServerConfig;
import dev.warden.server.WardenServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Where the recipe tests run: an in-process Warden server on a free port, or, when the system
 * property {@code warden.recipes.connect} holds a connect string, that external server or
 * ensemble. Hands out clients (closed with the target) and a fresh directory per test.
 */
public final class RecipeTarget implements AutoCloseable {
    /** System property naming an external target, e.g. {@code h1:2181,h2:2181,h3:2181}. */
    public static final String CONNECT_PROPERTY = "warden.recipes.connect";
    private static final int TICK_MS = 100;

    private final WardenServer server;
    private final String connectString;
    private final List<AutoCloseable> resources = new ArrayList<>();

    private RecipeTarget(WardenServer server, String connectString) {
        this.server = server;
        this.connectString = connectString;
    }

    /** The only place the tests read configuration from the environment. */
    public static RecipeTarget start() {
        String external = System.getProperty(CONNECT_PROPERTY);
        if (external != null && !external.isBlank()) {
            return new RecipeTarget(null, external.trim());
        }
        try {
            ServerConfig config = ServerConfig.builder()
                    .dataDir(Files.createTempDirectory("warden-recipes"))
                    .clientPort(0).tickTimeMs(TICK_MS).maxClientCnxns(1000)
                    .maxSessionTimeoutMs(60_000).build();
            WardenServer server = WardenServer.start(config);
            return new RecipeTarget(server, "127.0.0.1:" + server.clientPort());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String connectString() {
        return connectString;
    }

    /** A connected client with a 10 s session. */
    public WardenClient client() {
        return client(Duration.ofSeconds(10));
    }

    public synchronized WardenClient client(Duration sessionTimeout) {
        return track(connect(connectString, sessionTimeout));
    }

    /**
     * A client whose traffic passes through a {@link FaultProxy} in front of the first host, so
     * the test can cut it off (the proxy is closed with the target).
     */
    public synchronized ProxiedClient proxiedClient(Duration sessionTimeout) {
        String firstHost = connectString.split(",")[0];
        int port = Integer.parseInt(firstHost.substring(firstHost.lastIndexOf(':') + 1));
        FaultProxy proxy = track(new FaultProxy(port));
        WardenClient client = track(connect(proxy.address(), sessionTimeout));
        return new ProxiedClient(client, proxy);
    }

    /** A client and the proxy its connection goes through. */
    public record ProxiedClient(WardenClient client, FaultProxy proxy) {
    }

    /** A directory path nobody else uses. */
    public static String freshDir(String purpose) {
        return "/recipes-test/" + purpose + "-" + UUID.randomUUID();
    }

    private static WardenClient connect(String connect, Duration sessionTimeout) {
        return WardenClient.builder().connectString(connect).sessionTimeout(sessionTimeout)
                .connectTimeout(Duration.ofSeconds(5)).connect().join();
    }

    private <T extends AutoCloseable> T track(T resource) {
        resources.add(resource);
        return resource;
    }

    @Override
    public synchronized void close() {
        for (int i = resources.size() - 1; i >= 0; i--) {
            try {
                resources.get(i).close();
            } catch (Exception e) {
                // Closing is best effort: a test may have closed it already.
            }
        }
        resources.clear();
        if (server != null) {
            server.close();
        }
    }
}
