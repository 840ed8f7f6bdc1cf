package dev.warden.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.consensus.Role;
import dev.warden.server.EnsembleTestLimits;
import dev.warden.server.FreePorts;
import dev.warden.server.WardenServer;
import dev.warden.server.config.QuorumMember;
import dev.warden.server.config.ServerConfig;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JMX beans of Warden ensemble members under ZooKeeper's names, beside those of an
 * in-process Apache ZooKeeper ensemble: the same bean names for a leader and a follower (ids
 * aside), every Warden attribute one ZooKeeper has on the same bean, and the role attributes
 * telling the truth.
 */
class MemberJmxBeansDifferentialTest {
    private static final String DOMAIN = "org.apache.ZooKeeperService:";
    /** Warden's member ids, apart from the Apache ensemble's 1 to 3 in the same JVM. */
    private static final List<Long> WARDEN_IDS = List.of(11L, 12L, 13L);
    /** ZooKeeper attributes of machinery Warden does not have (tuning setters, its tick counter, its sockets). */
    private static final Set<String> NOT_IN_WARDEN = Set.of("ObserverElectionDelayMS", "MaxCnxns", "Tick",
            "ResponseCachingEnabled", "ConnectionMaxTokens", "ConnectionTokenFillTime", "ConnectionTokenFillCount",
            "ConnectionFreezeTime", "ConnectionDropIncrease", "ConnectionDropDecrease", "ConnectionDecreaseRatio",
            "CommitProcMaxReadBatchSize", "CommitProcMaxCommitBatchSize", "RequestThrottleLimit",
            "RequestThrottleStallTime", "RequestThrottleDropStale", "ThrottledOpWaitTime", "RequestStaleLatencyCheck",
            "RequestStaleConnectionCheck", "LargeRequestMaxBytes", "LargeRequestThreshold", "FlushDelay",
            "MaxWriteQueuePollTime", "MaxBatchSize", "NonMTLSLocalConnCount", "NonMTLSRemoteConnCount",
            "SecureClientPort", "SecureClientAddress", "TxnLogElapsedSyncTime", "CurrentZxid", "LastProposalSize",
            "MinProposalSize", "MaxProposalSize", "MaxConcurrentSnapSyncs", "MaxConcurrentDiffSyncs",
            "ElectionTimeTaken", "LastQueuedZxid", "PendingRevalidationCount", "ObserverMasterPacketSizeLimit",
            "QuorumAddress");

    @TempDir
    Path dir;

    @Test
    void aLeaderAndAFollowerHaveZooKeepersBeans() throws Exception {
        MBeanServer beans = ManagementFactory.getPlatformMBeanServer();
        List<WardenServer> wardens = new ArrayList<>();
        try (Apache3Target apache = Apache3Target.start(dir.resolve("apache"), Targets.superDigest())) {
            startWarden(wardens);
            long wardenLeader = await(wardens);
            long wardenFollower = wardenLeader == WARDEN_IDS.get(0) ? WARDEN_IDS.get(1) : WARDEN_IDS.get(0);
            long apacheLeader = apacheMemberIn(beans, "leading");
            long apacheFollower = apacheMemberIn(beans, "following");

            Map<String, Set<String>> apacheLeaderBeans = beansOf(beans, apacheLeader, List.of(1L, 2L, 3L));
            Map<String, Set<String>> wardenLeaderBeans = beansOf(beans, wardenLeader, WARDEN_IDS);
            Map<String, Set<String>> apacheFollowerBeans = beansOf(beans, apacheFollower, List.of(1L, 2L, 3L));
            Map<String, Set<String>> wardenFollowerBeans = beansOf(beans, wardenFollower, WARDEN_IDS);
            String connections = DOMAIN + "name0=ReplicatedServer_SELF,name1=replica.SELF,name2=Leader,"
                    + "name3=Learner_Connections,name4=\"ADDRESS\",name5=";
            assertEquals(Set.of(DOMAIN + "name0=ReplicatedServer_SELF",
                    connections + "\"id:OTHER1\"", connections + "\"id:OTHER2\"",
                    DOMAIN + "name0=ReplicatedServer_SELF,name1=replica.SELF",
                    DOMAIN + "name0=ReplicatedServer_SELF,name1=replica.OTHER1",
                    DOMAIN + "name0=ReplicatedServer_SELF,name1=replica.OTHER2",
                    DOMAIN + "name0=ReplicatedServer_SELF,name1=replica.SELF,name2=Leader",
                    DOMAIN + "name0=ReplicatedServer_SELF,name1=replica.SELF,name2=Leader,name3=InMemoryDataTree"),
                    wardenLeaderBeans.keySet());
            assertEquals(apacheLeaderBeans.keySet(), wardenLeaderBeans.keySet());
            assertEquals(apacheFollowerBeans.keySet(), wardenFollowerBeans.keySet());
            for (Map<String, Set<String>>[] pair : List.of(new Map[] {apacheLeaderBeans, wardenLeaderBeans},
                    new Map[] {apacheFollowerBeans, wardenFollowerBeans})) {
                for (String name : pair[1].keySet()) {
                    Set<String> invented = new TreeSet<>(pair[1].get(name));
                    invented.removeAll(pair[0].get(name));
                    assertEquals(Set.of(), invented, name + ": attributes ZooKeeper does not have");
                    Set<String> missing = new TreeSet<>(pair[0].get(name));
                    missing.removeAll(pair[1].get(name));
                    missing.removeAll(NOT_IN_WARDEN);
                    assertEquals(Set.of(), missing, name + ": ZooKeeper attributes Warden could give");
                }
            }

            String quorum = DOMAIN + "name0=ReplicatedServer_id" + wardenFollower;
            assertEquals(3, beans.getAttribute(new ObjectName(quorum), "QuorumSize"));
            ObjectName self = new ObjectName(quorum + ",name1=replica." + wardenFollower);
            assertEquals("following", beans.getAttribute(self, "State"));
            assertEquals(false, beans.getAttribute(self, "Leader"));
            assertEquals(true, beans.getAttribute(new ObjectName(quorum + ",name1=replica." + wardenLeader), "Leader"));
            assertEquals("leading", beans.getAttribute(new ObjectName(DOMAIN + "name0=ReplicatedServer_id" + wardenLeader
                    + ",name1=replica." + wardenLeader), "State"));
            assertTrue(((String) beans.getAttribute(self, "QuorumSystemInfo")).contains("server." + wardenLeader + "="));
        } finally {
            wardens.forEach(WardenServer::close);
        }
        assertEquals(Set.of(), beans.queryNames(new ObjectName(DOMAIN + "name0=ReplicatedServer_id11,*"), null),
                "a stopped member leaves no beans");
    }

    private void startWarden(List<WardenServer> wardens) throws Exception {
        Map<Long, QuorumMember> members = new LinkedHashMap<>();
        for (long id : WARDEN_IDS) {
            members.put(id, new QuorumMember(id, "127.0.0.1", FreePorts.pick(), FreePorts.pick(), false, null, 0));
        }
        for (long id : WARDEN_IDS) {
            Path memberDir = Files.createDirectories(dir.resolve("warden" + id));
            wardens.add(WardenServer.start(ServerConfig.builder().dataDir(memberDir).clientPort(FreePorts.pick())
                    .clientPortAddress("127.0.0.1").tickTimeMs(ApacheTarget.TICK_TIME_MS).serverId((int) id)
                    .initLimitTicks(EnsembleTestLimits.LIMIT_TICKS).syncLimitTicks(EnsembleTestLimits.LIMIT_TICKS)
                    .members(members).build()));
        }
    }

    /**
     * Waits until every member serves and their beans show it, the leader's with a
     * Learner_Connections bean for each follower; returns the leader's id.
     */
    private static long await(List<WardenServer> wardens) throws Exception {
        long deadline = System.currentTimeMillis() + 30_000;
        MBeanServer beans = ManagementFactory.getPlatformMBeanServer();
        while (System.currentTimeMillis() < deadline) {
            long leader = -1;
            int roleBeans = 0;
            for (WardenServer server : wardens) {
                if (server.member().isServing() && server.member().role() == Role.LEADING) {
                    leader = server.config().serverId();
                }
                roleBeans += beans.queryNames(pattern("name0=ReplicatedServer_id" + server.config().serverId()
                        + ",name1=replica." + server.config().serverId() + ",name2=*"), null).size();
            }
            boolean allServing = wardens.stream().allMatch(s -> s.member().isServing());
            int learnerBeans = leader < 0 ? 0 : beans.queryNames(pattern("name0=ReplicatedServer_id" + leader
                    + ",name1=replica." + leader + ",name2=Leader,name3=Learner_Connections,*"), null).size();
            if (allServing && leader > 0 && roleBeans == wardens.size() && learnerBeans == wardens.size() - 1) {
                return leader;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("the Warden members did not all serve with their beans within 30 s");
    }

    private static long apacheMemberIn(MBeanServer beans, String state) throws Exception {
        for (long id = 1; id <= 3; id++) {
            ObjectName self = new ObjectName(DOMAIN + "name0=ReplicatedServer_id" + id + ",name1=replica." + id);
            if (state.equals(beans.getAttribute(self, "State"))) {
                return id;
            }
        }
        throw new AssertionError("no Apache member " + state);
    }

    /**
     * The member's beans by name, its own id written SELF and the others' OTHER1, OTHER2 in id
     * order, a learner connection's address ADDRESS; with their attributes, and for learner
     * connections their operations too (they have no attributes).
     */
    private static Map<String, Set<String>> beansOf(MBeanServer beans, long id, List<Long> ids) throws Exception {
        Map<String, Set<String>> found = new TreeMap<>();
        for (ObjectName name : beans.queryNames(pattern("name0=ReplicatedServer_id" + id + ",*"), null)) {
            if (isStrayLearner(name, ids)) {
                continue;
            }
            addBean(beans, name, id, ids, found);
        }
        addBean(beans, new ObjectName(DOMAIN + "name0=ReplicatedServer_id" + id), id, ids, found);
        return found;
    }

    /**
     * A learner connection from outside the ensemble: ZooKeeper takes one from any server id, so a
     * member of an earlier test in this JVM still dialling a port the ensemble now listens on shows
     * up as a learner; it says nothing about either server's beans.
     */
    private static boolean isStrayLearner(ObjectName name, List<Long> ids) {
        String learner = name.getKeyProperty("name5");
        return "Learner_Connections".equals(name.getKeyProperty("name3")) && learner != null
                && ids.stream().noneMatch(id -> learner.equals("\"id:" + id + "\""));
    }

    private static void addBean(MBeanServer beans, ObjectName name, long id, List<Long> ids,
                                Map<String, Set<String>> found) throws Exception {
        Set<String> attributes = new TreeSet<>();
        Arrays.stream(beans.getMBeanInfo(name).getAttributes()).forEach(a -> attributes.add(a.getName()));
        if (name.getKeyProperty("name3") != null && name.getKeyProperty("name3").equals("Learner_Connections")) {
            Arrays.stream(beans.getMBeanInfo(name).getOperations()).forEach(o -> attributes.add(o.getName() + "()"));
        }
        String normal = name.getCanonicalName().replace("ReplicatedServer_id" + id, "ReplicatedServer_SELF")
                .replace("replica." + id + ",", "replica.SELF,");
        if (normal.endsWith("replica." + id)) {
            normal = normal.substring(0, normal.length() - ("replica." + id).length()) + "replica.SELF";
        }
        List<Long> others = ids.stream().filter(peer -> peer != id).toList();
        for (int i = 0; i < others.size(); i++) {
            if (normal.matches(".*replica\\." + others.get(i) + "(,.*)?$")) {
                normal = normal.replace("replica." + others.get(i), "replica.OTHER" + (i + 1));
            }
            normal = normal.replace("\"id:" + others.get(i) + "\"", "\"id:OTHER" + (i + 1) + "\"");
        }
        normal = normal.replaceAll("name4=\"[0-9.:]+\"", "name4=\"ADDRESS\"");
        found.put(normal, attributes);
    }

    private static ObjectName pattern(String keys) throws Exception {
        return new ObjectName(DOMAIN + keys);
    }
}
