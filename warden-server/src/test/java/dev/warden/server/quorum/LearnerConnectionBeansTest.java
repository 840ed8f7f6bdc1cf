package dev.warden.server.quorum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.consensus.Role;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ZooKeeper's {@code Learner_Connections} beans through the platform MBean server: the leader has
 * one per follower and a follower one per observer it serves as their master, each named by the
 * address the learner's connection comes from; {@code terminateConnection} closes that
 * connection, and the learner looks for its leader again, rejoins, and gets a bean for its new
 * connection.
 */
class LearnerConnectionBeansTest {
    private static final long TIMEOUT_MS = 30_000;
    private static final long OBSERVER = 4;
    private static final List<Long> VOTERS = List.of(1L, 2L, 3L);

    @TempDir
    Path dir;

    private TestEnsemble ensemble;
    private final MBeanServer beans = ManagementFactory.getPlatformMBeanServer();

    @AfterEach
    void tearDown() {
        if (ensemble != null) {
            ensemble.close();
        }
    }

    @Test
    void leadersAndObserverMastersShowTheirLearnersAndCloseAConnectionOnDemand() throws Exception {
        ensemble = TestEnsemble.startedWithObserverMasters(dir, VOTERS, List.of(OBSERVER), TIMEOUT_MS);
        // asked afresh each time: every member serves, but the first leader may yet give way to
        // another; the observer may sync from the leader when it found no follower ready
        await(() -> {
            long now = leader();
            return now > 0 && connections(now, "Leader").keySet().containsAll(others(now));
        }, "a serving leader's beans name its two followers");
        long leader = leader();
        List<Long> followers = others(leader);
        await(() -> ensemble.server(OBSERVER).member().status().observerMasterId().orElse(-1) > 0,
                "the observer syncs from a master");
        long master = ensemble.server(OBSERVER).member().status().observerMasterId().orElse(-1);
        String masterRole = master == leader ? "Leader" : "Follower";
        await(() -> connections(master, masterRole).containsKey(OBSERVER),
                "the observer master's bean names the observer");
        for (ObjectName name : connections(leader, "Leader").values()) {
            assertTrue(name.getKeyProperty("name4").matches("\"127\\.0\\.0\\.1:\\d+\""), name.toString());
        }

        // the follower that is not the observer's master, so the observer stays where it is meanwhile
        long follower = followers.stream().filter(id -> id != master).findFirst().orElseThrow();
        ObjectName before = connections(leader, "Leader").get(follower);
        long lookingBefore = ensemble.server(follower).member().status().lookingCount();
        beans.invoke(before, "terminateConnection", new Object[0], new String[0]);
        await(() -> {
            ObjectName now = connections(leader, "Leader").get(follower);
            return now != null && !now.equals(before) && ensemble.server(follower).member().isServing();
        }, "follower " + follower + " rejoins on a new connection with a bean of its own");
        assertTrue(ensemble.server(follower).member().status().lookingCount() > lookingBefore,
                "the follower looked for its leader again");
        assertEquals(leader, leader(), "the leader stays");

        ObjectName observerBefore = connections(master, masterRole).get(OBSERVER);
        beans.invoke(observerBefore, "terminateConnection", new Object[0], new String[0]);
        await(() -> {
            long nowMaster = ensemble.server(OBSERVER).member().status().observerMasterId().orElse(-1);
            // its next master may be the leader itself
            ObjectName now = nowMaster < 0 ? null
                    : connections(nowMaster, nowMaster == leader ? "Leader" : "Follower").get(OBSERVER);
            return now != null && !now.equals(observerBefore) && ensemble.server(OBSERVER).member().isServing();
        }, "the observer rejoins a master on a new connection with a bean of its own");
        assertNotEquals(Map.of(), connections(leader, "Leader"));
    }

    private static List<Long> others(long id) {
        return VOTERS.stream().filter(voter -> voter != id).toList();
    }

    /** The Learner_Connections beans under member {@code id}'s role bean {@code role}, by learner id. */
    private Map<Long, ObjectName> connections(long id, String role) {
        Map<Long, ObjectName> byLearner = new TreeMap<>();
        try {
            for (ObjectName name : beans.queryNames(new ObjectName("org.apache.ZooKeeperService:name0=ReplicatedServer_id"
                    + id + ",name1=replica." + id + ",name2=" + role + ",name3=Learner_Connections,*"), null)) {
                String learner = name.getKeyProperty("name5"); // "id:N"
                byLearner.put(Long.parseLong(learner.substring(4, learner.length() - 1)), name);
            }
        } catch (javax.management.MalformedObjectNameException e) {
            throw new IllegalStateException(e);
        }
        return byLearner;
    }

    private long leader() {
        for (long id : VOTERS) {
            var member = ensemble.server(id).member();
            if (member.isServing() && member.role() == Role.LEADING) {
                return id;
            }
        }
        return -1;
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.currentTimeMillis() + TIMEOUT_MS;
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("not within " + TIMEOUT_MS + " ms: " + what);
            }
            Thread.sleep(20);
        }
    }
}
