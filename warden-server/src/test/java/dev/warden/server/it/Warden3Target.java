package dev.warden.server.it;

import dev.warden.server.EnsembleTestLimits;
import dev.warden.server.FreePorts;
import dev.warden.server.WardenServer;
import dev.warden.server.config.QuorumMember;
import dev.warden.server.config.ServerConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A three-member Warden ensemble in this JVM, configured like {@link WardenTarget}. Each call to
 * {@link #connectString()} names the next member in turn, so a test's clients are spread over
 * the leader and the followers.
 */
final class Warden3Target implements TargetServer {
    private static final int MEMBERS = 3;
    private static final long SERVING_TIMEOUT_MS = 30_000;

    private final List<ServerConfig> configs;
    private final List<WardenServer> servers = new ArrayList<>();
    private final AtomicInteger nextMember = new AtomicInteger();

    private Warden3Target(List<ServerConfig> configs) {
        this.configs = configs;
    }

    static Warden3Target start(Path dataDir, String superDigest) throws Exception {
        Map<Long, QuorumMember> members = new HashMap<>();
        for (long id = 1; id <= MEMBERS; id++) {
            members.put(id, new QuorumMember(id, "127.0.0.1", FreePorts.pick(), FreePorts.pick(), false, null, 0));
        }
        List<ServerConfig> configs = new ArrayList<>();
        for (long id = 1; id <= MEMBERS; id++) {
            configs.add(ServerConfig.builder()
                    .dataDir(dataDir.resolve("member" + id))
                    .clientPort(FreePorts.pick())
                    .clientPortAddress("127.0.0.1")
                    .serverId((int) id)
                    .members(members)
                    .initLimitTicks(EnsembleTestLimits.LIMIT_TICKS)
                    .syncLimitTicks(EnsembleTestLimits.LIMIT_TICKS)
                    .tickTimeMs(ApacheTarget.TICK_TIME_MS)
                    .minSessionTimeoutMs(ApacheTarget.MIN_SESSION_TIMEOUT_MS)
                    .maxSessionTimeoutMs(ApacheTarget.MAX_SESSION_TIMEOUT_MS)
                    .containerCheckIntervalMs(ApacheTarget.CONTAINER_CHECK_INTERVAL_MS)
                    .fourLetterWordWhitelist(Set.of("*"))
                    .maxClientCnxns(500)
                    .superDigest(superDigest)
                    .build());
        }
        Warden3Target target = new Warden3Target(configs);
        target.startAll();
        return target;
    }

    private void startAll() throws Exception {
        for (ServerConfig config : configs) {
            servers.add(WardenServer.start(config));
        }
        long deadline = System.currentTimeMillis() + SERVING_TIMEOUT_MS;
        for (WardenServer server : servers) {
            while (!server.member().isServing()) {
                if (System.currentTimeMillis() > deadline) {
                    throw new IllegalStateException("the ensemble did not start serving within " + SERVING_TIMEOUT_MS + " ms");
                }
                Thread.sleep(10);
            }
        }
    }

    @Override
    public String connectString() {
        ServerConfig config = configs.get(Math.floorMod(nextMember.getAndIncrement(), MEMBERS));
        return config.clientPortAddress() + ":" + config.clientPort();
    }

    @Override
    public void restart() throws Exception {
        close();
        startAll();
    }

    @Override
    public String name() {
        return "warden3";
    }

    @Override
    public void close() {
        for (WardenServer server : servers) {
            server.close();
        }
        servers.clear();
    }
}
