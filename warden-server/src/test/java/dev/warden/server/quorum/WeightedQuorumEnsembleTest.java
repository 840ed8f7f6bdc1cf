package dev.warden.server.quorum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.warden.consensus.Role;
import dev.warden.server.EnsembleTestLimits;
import dev.warden.server.FreePorts;
import dev.warden.server.WardenServer;
import dev.warden.server.config.QuorumGroups;
import dev.warden.server.config.QuorumMember;
import dev.warden.server.config.ServerConfig;
import dev.warden.state.common.Clock;
import dev.warden.storage.TxnLogOptions;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * group.N/weight.N lines reach the members' quorum counting: three members in one group with
 * member 3 of weight 0 need members 1 and 2 both (a majority of the group's weight of 2), so 2
 * and 3 alone, a plain majority of the member list, elect nobody, and 3 never leads.
 */
class WeightedQuorumEnsembleTest {
    private static final long SERVING_TIMEOUT_MS = 20_000;
    /** Ten election timeouts: 2 and 3 would have elected by then under a plain majority. */
    private static final long NO_LEADER_WAIT_MS = 10 * 2 * TestEnsemble.TICK_MS;

    @TempDir
    Path dir;

    private final Map<Long, WardenServer> servers = new HashMap<>();

    @AfterEach
    void tearDown() {
        servers.values().forEach(WardenServer::close);
    }

    @Test
    void aWeightZeroMemberNeverCountsTowardAQuorumNorLeads() throws Exception {
        Map<Long, QuorumMember> members = new TreeMap<>();
        Map<Long, Integer> clientPorts = new HashMap<>();
        for (long id = 1; id <= 3; id++) {
            clientPorts.put(id, FreePorts.pick());
            members.put(id, new QuorumMember(id, "127.0.0.1", FreePorts.pick(), FreePorts.pick(), false, null, 0));
        }
        QuorumGroups oneGroup = new QuorumGroups(new TreeMap<>(Map.of(1L, Set.of(1L, 2L, 3L))),
                new TreeMap<>(Map.of(3L, 0L)));
        Map<Long, ServerConfig> configs = new HashMap<>();
        for (long id = 1; id <= 3; id++) {
            configs.put(id, ServerConfig.builder().dataDir(dir.resolve("m" + id)).clientPort(clientPorts.get(id))
                    .clientPortAddress("127.0.0.1").tickTimeMs(TestEnsemble.TICK_MS).serverId((int) id)
                    .initLimitTicks(EnsembleTestLimits.LIMIT_TICKS).syncLimitTicks(EnsembleTestLimits.LIMIT_TICKS)
                    .members(members).quorumGroups(oneGroup).build());
        }
        for (long id : new long[] {2, 3}) {
            servers.put(id, WardenServer.start(configs.get(id), Clock.SYSTEM, TxnLogOptions.defaults().channels(),
                    ZabConsensus::new));
        }
        long deadline = System.currentTimeMillis() + NO_LEADER_WAIT_MS;
        while (System.currentTimeMillis() < deadline) {
            for (Map.Entry<Long, WardenServer> e : servers.entrySet()) {
                assertFalse(e.getValue().member().isServing(), "member " + e.getKey()
                        + " serves with only members 2 and 3 up: the weight-0 member counted");
            }
            Thread.sleep(20);
        }
        servers.put(1L, WardenServer.start(configs.get(1L), Clock.SYSTEM, TxnLogOptions.defaults().channels(),
                ZabConsensus::new));
        long leader = awaitOneLeader();
        assertNotEquals(3L, leader, "a member of weight 0 may not lead");
        assertEquals(3, servers.size());
    }

    private long awaitOneLeader() throws InterruptedException {
        long deadline = System.currentTimeMillis() + SERVING_TIMEOUT_MS;
        while (System.currentTimeMillis() < deadline) {
            boolean allServing = true;
            long leader = -1;
            for (Map.Entry<Long, WardenServer> e : servers.entrySet()) {
                allServing &= e.getValue().member().isServing();
                if (e.getValue().member().isServing() && e.getValue().member().role() == Role.LEADING) {
                    leader = e.getKey();
                }
            }
            if (allServing && leader > 0) {
                return leader;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("the three members do not serve under one leader within " + SERVING_TIMEOUT_MS
                + " ms");
    }
}
