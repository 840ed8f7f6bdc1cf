package dev.warden.recipes.testing;

import dev.warden.client.WardenClient;
import dev.warden.server.ServerConfig;
import dev.warden.server.WardenServer;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The part-B recipe tests' server: an in-process Warden server on a free port, or, when the
 * system property {@value #CONNECT_PROPERTY} names a connect string, that external ensemble.
 * Every test works under its own fresh path so runs against a shared ensemble do not collide.
 * Clients made here are closed with the fixture.
 */
public final class RecipeServerB implements AutoCloseable {
    public static final String CONNECT_PROPERTY = "warden.recipes.connect";
    public static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(4);
    /** Short enough for expiry tests, long enough for a loaded two-core machine. */
    public static final Duration SHORT_SESSION_TIMEOUT = Duration.ofMillis(1500);

    private final WardenServer server;
    private final String connectString;
    private final List<AutoCloseable> owned = new ArrayList<>();

    private RecipeServerB(WardenServer server, String connectString) {
        this.server = server;
        this.connectString = connectString;
    }

    /** Starts a server in {@code dataDir}, unless an external connect string is configured. */
    public static RecipeServerB start(Path dataDir) throws IOException {
        String external = System.getProperty(CONNECT_PROPERTY);
        if (external != null && !external.isBlank()) {
            return new RecipeServerB(null, external.trim());
        }
        ServerConfig config = ServerConfig.builder()
                .dataDir(dataDir)
                .clientPort(0)
                .clientPortAddress("127.0.0.1")
                .tickTimeMs(100)
                .minSessionTimeoutMs(200)
                .maxSessionTimeoutMs(20_000)
                .forceSync(false)
                .maxClientCnxns(500)
                .build();
        WardenServer server = WardenServer.start(config);
        return new RecipeServerB(server, server.connectString());
    }

    public String connectString() {
        return connectString;
    }

    /** A fresh, not yet existing path for one test. */
    public String freshPath(String name) {
        return "/recipes-b-" + name + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    public WardenClient newClient() {
        return newClient(DEFAULT_SESSION_TIMEOUT);
    }

    public WardenClient newClient(Duration sessionTimeout) {
        return connect(connectString, sessionTimeout);
    }

    /**
     * A client whose traffic passes through a proxy the test can cut, to make its session
     * expire the way a crashed or partitioned process's would (no close, no goodbye).
     */
    public ProxiedClient newProxiedClient(Duration sessionTimeout) throws IOException {
        String first = connectString.split(",")[0];
        int colon = first.lastIndexOf(':');
        String host = first.substring(0, colon);
        int port = Integer.parseInt(first.substring(colon + 1).replaceAll("/.*$", ""));
        CuttableProxy proxy = CuttableProxy.start(host, port);
        synchronized (owned) {
            owned.add(proxy);
        }
        WardenClient client = connect(proxy.connectString(), sessionTimeout);
        return new ProxiedClient(client, proxy);
    }

    private WardenClient connect(String target, Duration sessionTimeout) {
        WardenClient client = WardenClient.builder()
                .connectString(target)
                .sessionTimeout(sessionTimeout)
                .connectTimeout(Duration.ofMillis(Math.max(500, sessionTimeout.toMillis() / 3)))
                .connect()
                .join();
        synchronized (owned) {
            owned.add(client);
        }
        return client;
    }

    @Override
    public void close() {
        List<AutoCloseable> toClose;
        synchronized (owned) {
            toClose = new ArrayList<>(owned);
            owned.clear();
        }
        for (AutoCloseable closeable : toClose) {
            try {
                closeable.close();
            } catch (Exception ignored) {
                // closing a client whose session is already gone may complain; the test is over
            }
        }
        if (server != null) {
            server.close();
        }
    }

    /** A client and the proxy its connection runs through. */
    public record ProxiedClient(WardenClient client, CuttableProxy proxy) {
    }
}
