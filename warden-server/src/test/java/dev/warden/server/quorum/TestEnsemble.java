package dev.warden.server.quorum;

import dev.warden.consensus.Role;
import dev.warden.server.EnsembleTestLimits;
import dev.warden.server.FreePorts;
import dev.warden.server.WardenServer;
import dev.warden.server.config.QuorumMember;
import dev.warden.server.config.ServerConfig;
import dev.warden.state.common.Clock;
import dev.warden.storage.TxnLogOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * In-JVM ensembles for tests: members on free loopback ports, each in its own data directory,
 * with the consensus side chosen by a {@link ConsensusFactory.Provider} per member.
 */
final class TestEnsemble implements AutoCloseable {
    static final int TICK_MS = 200;

    private final Path baseDir;
    private final Map<Long, QuorumMember> members = new HashMap<>();
    private final Map<Long, ServerConfig> configs = new HashMap<>();
    private final Map<Long, WardenServer> servers = new HashMap<>();
    private final ConsensusFactory.Provider provider;

    /** {@code ids} vote; {@code observerIds} observe. Nothing starts until {@link #start}. */
    TestEnsemble(Path baseDir, List<Long> ids, List<Long> observerIds, ConsensusFactory.Provider provider)
            throws IOException {
        this(baseDir, ids, observerIds, provider, true);
    }

    /**
     * As above; {@code treeCheck} false turns the run-time tree check off (digest.enabled), for
     * tests that fabricate a member's history on purpose, which the check would rightly find.
     */
    TestEnsemble(Path baseDir, List<Long> ids, List<Long> observerIds, ConsensusFactory.Provider provider,
                 boolean treeCheck) throws IOException {
        this.baseDir = baseDir;
        this.provider = provider;
        List<Long> all = new ArrayList<>(ids);
        all.addAll(observerIds);
        for (long id : all) {
            members.put(id, new QuorumMember(id, "127.0.0.1", FreePorts.pick(), FreePorts.pick(), observerIds.contains(id),
                    null, 0));
        }
        for (long id : all) {
            configs.put(id, ServerConfig.builder()
                    .dataDir(baseDir.resolve("m" + id))
                    .clientPort(FreePorts.pick())
                    .clientPortAddress("127.0.0.1")
                    .tickTimeMs(TICK_MS)
                    .serverId((int) id)
                    .initLimitTicks(EnsembleTestLimits.LIMIT_TICKS)
                    .syncLimitTicks(EnsembleTestLimits.LIMIT_TICKS)
                    .members(members)
                    .fourLetterWordWhitelist(Set.of("*"))
                    .containerCheckIntervalMs(500)
                    .digestEnabled(treeCheck)
                    .build());
        }
    }

    /** Changes every member's configuration before it starts (a key all members share, say). */
    /**
     * Voters and observers with observerMasterPort set on every member, started and all serving:
     * observers sync from and follow a follower.
     */
    static TestEnsemble startedWithObserverMasters(Path dir, java.util.List<Long> voters, java.util.List<Long> observers,
                                                   long timeoutMs) throws IOException, InterruptedException {
        TestEnsemble ensemble = new TestEnsemble(dir, voters, observers, ZabConsensus::new);
        try {
            ensemble.configureAll(b -> b.observerMasterPort(2191));
            ensemble.startAll();
            ensemble.awaitAllServing(timeoutMs);
            return ensemble;
        } catch (IOException | InterruptedException | RuntimeException | Error e) {
            ensemble.close();
            throw e;
        }
    }

    void configureAll(java.util.function.UnaryOperator<ServerConfig.Builder> change) {
        configs.replaceAll((id, config) -> change.apply(config.toBuilder()).build());
    }

    /** Changes member {@code id}'s configuration before it starts. */
    void configure(long id, java.util.function.UnaryOperator<ServerConfig.Builder> change) {
        configs.put(id, change.apply(configs.get(id).toBuilder()).build());
    }

    /** Gives member {@code id} these security settings (TLS, SASL) before it starts. */
    void security(long id, dev.warden.server.security.SecurityConfig security) {
        configs.put(id, configs.get(id).toBuilder().security(security).build());
    }

    void startAll() throws IOException {
        for (long id : configs.keySet()) {
            if (!servers.containsKey(id)) {
                start(id);
            }
        }
    }

    WardenServer start(long id) throws IOException {
        return start(id, TxnLogOptions.defaults().channels());
    }

    /** Starts member {@code id} with its log files opened through {@code logChannels}. */
    WardenServer start(long id, dev.warden.storage.FileChannelFactory logChannels) throws IOException {
        WardenServer server = WardenServer.start(configs.get(id), Clock.SYSTEM, logChannels, provider);
        servers.put(id, server);
        return server;
    }

    void stop(long id) {
        WardenServer server = servers.remove(id);
        if (server != null) {
            server.close();
        }
    }

    WardenServer server(long id) {
        return servers.get(id);
    }

    ServerConfig config(long id) {
        return configs.get(id);
    }

    Path dataDir(long id) {
        return configs.get(id).dataDir();
    }

    String connectString(long id) {
        return "127.0.0.1:" + configs.get(id).clientPort();
    }

    /** Every member's client address, for clients that fail over. */
    String connectStringAll() {
        List<String> parts = new ArrayList<>();
        for (long id : configs.keySet()) {
            parts.add(connectString(id));
        }
        return String.join(",", parts);
    }

    /** Waits until {@code id} serves clients. */
    void awaitServing(long id, long timeoutMs) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMs;
        while (System.currentTimeMillis() < deadline) {
            WardenServer server = servers.get(id);
            if (server != null && server.member().isServing()) {
                return;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("member " + id + " not serving within " + timeoutMs + " ms");
    }

    /**
     * Waits for the members still running to settle under a leader other than
     * {@code previousLeader}. Waiting for each to be serving is not enough: just after the leader
     * stops, its followers have not yet noticed and still report serving under it.
     */
    long awaitNewLeader(long previousLeader, long timeoutMs) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMs;
        while (System.currentTimeMillis() < deadline) {
            List<Long> leaders = new ArrayList<>();
            boolean allServing = true;
            for (Map.Entry<Long, WardenServer> entry : servers.entrySet()) {
                boolean serving = entry.getValue().member().isServing();
                allServing &= serving;
                if (serving && entry.getValue().member().role() == Role.LEADING) {
                    leaders.add(entry.getKey());
                }
            }
            if (allServing && leaders.size() == 1 && leaders.get(0) != previousLeader) {
                return leaders.get(0);
            }
            Thread.sleep(10);
        }
        throw new AssertionError("no new leader serving every running member within " + timeoutMs + " ms");
    }

    void awaitAllServing(long timeoutMs) throws InterruptedException {
        for (long id : servers.keySet()) {
            awaitServing(id, timeoutMs);
        }
    }

    Map<Long, WardenServer> servers() {
        return servers;
    }

    @Override
    public void close() {
        for (long id : new ArrayList<>(servers.keySet())) {
            stop(id);
        }
    }
}
