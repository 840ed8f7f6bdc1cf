package dev.warden.recipes.testing;

import dev.warden.client.WardenClient;
import dev.warden.server.WardenServer;
import dev.warden.server.config.ServerConfig;
import dev.warden.testsupport.FaultProxy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Where the recipe tests run, and the clients they use (closed with the target):
 * <ul>
 *   <li>by default an in-process standalone Warden server on a free port;</li>
 *   <li>with {@code -D}{@value #TARGET_PROPERTY}{@code =ensemble}, a three-member Warden ensemble
 *       in this JVM, every client given all three members;</li>
 *   <li>with {@code -D}{@value #CONNECT_PROPERTY}{@code =h1:p1,h2:p2,...}, that external server
 *       or ensemble (nothing is started).</li>
 * </ul>
 * Tests that must lose the leader call {@link #startEnsemble} and {@link #killLeader}.
 */
public final class RecipeTarget implements AutoCloseable {
    /** System property naming an external target, e.g. {@code h1:2181,h2:2181,h3:2181}. */
    public static final String CONNECT_PROPERTY = "warden.recipes.connect";
    /** System property choosing the in-process target: {@code standalone} (default) or {@code ensemble}. */
    public static final String TARGET_PROPERTY = "warden.recipes.target";
    public static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(10);
    /** Short enough for expiry tests, long enough for a loaded two-core machine. */
    public static final Duration SHORT_SESSION_TIMEOUT = Duration.ofMillis(1500);
    /** A connect attempt to one host gives up after a third of the session timeout, at least this. */
    private static final Duration MIN_CONNECT_TIMEOUT = Duration.ofMillis(500);
    private static final Duration ENSEMBLE_TIMEOUT = Duration.ofSeconds(60);
    private static final int TICK_MS = 100;
    private static final int START_ATTEMPTS = 3;
    private static final int MIN_SESSION_TIMEOUT_MS = 200;
    private static final int MAX_SESSION_TIMEOUT_MS = 60_000;

    private final WardenServer server;
    private final InJvmEnsemble ensemble;
    private final String connectString;
    private final List<AutoCloseable> owned = new ArrayList<>();

    private RecipeTarget(WardenServer server, InJvmEnsemble ensemble, String connectString) {
        this.server = server;
        this.ensemble = ensemble;
        this.connectString = connectString;
    }

    /** The configured target, with its files (if any) in a fresh temporary directory. */
    public static RecipeTarget start() {
        try {
            return start(Files.createTempDirectory("warden-recipes"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The configured target; a server started here keeps its files under {@code dataDir}. */
    public static RecipeTarget start(Path dataDir) {
        String external = System.getProperty(CONNECT_PROPERTY);
        if (external != null && !external.isBlank()) {
            return new RecipeTarget(null, null, external.trim());
        }
        String kind = System.getProperty(TARGET_PROPERTY, "standalone").trim();
        return switch (kind) {
            case "standalone" -> startStandalone(dataDir);
            case "ensemble" -> startEnsemble(dataDir);
            default -> throw new IllegalArgumentException(TARGET_PROPERTY + " must be standalone or ensemble, not '"
                    + kind + "'");
        };
    }

    /** Always a three-member in-JVM ensemble, whatever the properties say: for leader-loss tests. */
    public static RecipeTarget startEnsemble(Path dataDir) {
        for (int attempt = 1; ; attempt++) {
            InJvmEnsemble ensemble = new InJvmEnsemble(dataDir.resolve("attempt-" + attempt), MIN_SESSION_TIMEOUT_MS,
                    MAX_SESSION_TIMEOUT_MS);
            try {
                ensemble.startAll(ENSEMBLE_TIMEOUT);
                return new RecipeTarget(null, ensemble, ensemble.connectString());
            } catch (UncheckedIOException e) {
                ensemble.close();
                // a port picked free was taken before the member bound it (a shared machine): pick again
                if (attempt == START_ATTEMPTS || !(e.getCause() instanceof java.net.BindException)) {
                    throw e;
                }
            } catch (RuntimeException e) {
                ensemble.close();
                throw e;
            }
        }
    }

    private static RecipeTarget startStandalone(Path dataDir) {
        ServerConfig config = ServerConfig.builder()
                .dataDir(dataDir)
                .clientPort(0)
                .clientPortAddress("127.0.0.1")
                .tickTimeMs(TICK_MS)
                .minSessionTimeoutMs(MIN_SESSION_TIMEOUT_MS)
                .maxSessionTimeoutMs(MAX_SESSION_TIMEOUT_MS)
                .maxClientCnxns(1000)
                .build();
        try {
            WardenServer server = WardenServer.start(config);
            return new RecipeTarget(server, null, server.connectString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String connectString() {
        return connectString;
    }

    /**
     * Stops the ensemble's current leader and waits until the other two serve under a new one.
     *
     * @return the stopped member's id
     */
    public long killLeader() {
        return requireEnsemble().killLeader(ENSEMBLE_TIMEOUT);
    }

    /** Starts a member stopped by {@link #killLeader} again and waits until all three serve. */
    public void restartMember(long id) {
        InJvmEnsemble members = requireEnsemble();
        members.start(id);
        members.awaitAllServing(ENSEMBLE_TIMEOUT);
    }

    /** The members' roles, for failure messages. */
    public String describe() {
        return ensemble != null ? "ensemble " + ensemble.describe() : "server " + connectString;
    }

    private InJvmEnsemble requireEnsemble() {
        if (ensemble == null) {
            throw new IllegalStateException("not an in-JVM ensemble: " + connectString);
        }
        return ensemble;
    }

    /** A connected client with the {@link #DEFAULT_SESSION_TIMEOUT}. */
    public WardenClient client() {
        return client(DEFAULT_SESSION_TIMEOUT);
    }

    public WardenClient client(Duration sessionTimeout) {
        return connect(connectString, sessionTimeout);
    }

    /**
     * A client whose traffic passes through a {@link FaultProxy} in front of the first host only,
     * so the test can pause, drop or cut it (the proxy is closed with the target).
     */
    public ProxiedClient proxiedClient(Duration sessionTimeout) {
        String first = connectString.split(",")[0].replaceAll("/.*$", "");
        int colon = first.lastIndexOf(':');
        FaultProxy proxy = own(new FaultProxy(first.substring(0, colon), Integer.parseInt(first.substring(colon + 1))));
        return new ProxiedClient(connect(proxy.address(), sessionTimeout), proxy);
    }

    /** A client and the proxy its connection goes through. */
    public record ProxiedClient(WardenClient client, FaultProxy proxy) {
    }

    /** A top-level path nobody else uses, so runs against a shared server do not collide. */
    public static String freshPath(String purpose) {
        return "/recipes-" + purpose + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private WardenClient connect(String target, Duration sessionTimeout) {
        return own(WardenClient.builder().connectString(target).sessionTimeout(sessionTimeout)
                .connectTimeout(maxOf(MIN_CONNECT_TIMEOUT, sessionTimeout.dividedBy(3))).connect().join());
    }

    private static Duration maxOf(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    private <T extends AutoCloseable> T own(T resource) {
        synchronized (owned) {
            owned.add(resource);
        }
        return resource;
    }

    @Override
    public void close() {
        List<AutoCloseable> toClose;
        synchronized (owned) {
            toClose = new ArrayList<>(owned);
            owned.clear();
        }
        for (int i = toClose.size() - 1; i >= 0; i--) {
            try {
                toClose.get(i).close();
            } catch (Exception e) {
                // Closing is best effort: a test may have closed it already, or its session is gone.
            }
        }
        if (server != null) {
            server.close();
        }
        if (ensemble != null) {
            ensemble.close();
        }
    }
}
