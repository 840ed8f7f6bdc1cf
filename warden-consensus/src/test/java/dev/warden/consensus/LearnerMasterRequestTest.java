package dev.warden.consensus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * ZooKeeper's setLearnerMaster on an observer ({@link ZabPeer#requestLearnerMaster}): a voter
 * asked for becomes its master once it has found the leader again; anything that cannot be a
 * master is refused and changes nothing.
 */
class LearnerMasterRequestTest {
    private static final Set<Long> VOTERS = Set.of(1L, 2L, 3L);
    private static final long OBSERVER = 4;

    private static TestCluster ensemble(boolean observerMasters) {
        TestCluster cluster = new TestCluster(VOTERS, Set.of(OBSERVER));
        cluster.observerMasters = observerMasters;
        for (long id = 1; id <= 4; id++) {
            cluster.add(id, new MemoryLog(), new EpochState(0, 0));
        }
        cluster.runUntil(TestCluster::allServing, 30_000);
        return cluster;
    }

    private static ZabPeer observer(TestCluster cluster) {
        return cluster.member(OBSERVER).peer;
    }

    @Test
    void theObserverMovesToTheVoterAskedFor() {
        TestCluster cluster = ensemble(true);
        long leaderId = cluster.leader().id;
        long first = observer(cluster).learnerMasterId();
        // every other voter in turn, the leader included
        for (long wanted : VOTERS) {
            if (wanted == first) {
                continue;
            }
            assertTrue(observer(cluster).requestLearnerMaster(wanted));
            cluster.member(OBSERVER).drive();
            cluster.runUntil(c -> observer(c).isServing() && observer(c).learnerMasterId() == wanted, 10_000);
            assertEquals(leaderId, observer(cluster).leaderId());
            long zxid = cluster.propose("after moving to " + wanted);
            cluster.runUntil(c -> c.member(OBSERVER).log.applied.containsKey(zxid), 5_000);
        }
    }

    @Test
    void askingForTheCurrentMasterChangesNothing() {
        TestCluster cluster = ensemble(true);
        long master = observer(cluster).learnerMasterId();
        assertTrue(observer(cluster).requestLearnerMaster(master));
        assertTrue(observer(cluster).isServing(), "it did not leave its master");
        assertEquals(master, observer(cluster).learnerMasterId());
    }

    @Test
    void whatCannotBeAMasterIsRefusedAndChangesNothing() {
        TestCluster cluster = ensemble(true);
        long master = observer(cluster).learnerMasterId();
        assertFalse(observer(cluster).requestLearnerMaster(OBSERVER), "itself");
        assertFalse(observer(cluster).requestLearnerMaster(99), "not a member");
        assertFalse(cluster.leader().peer.requestLearnerMaster(master), "asked of a voter");
        assertTrue(observer(cluster).isServing());
        assertEquals(master, observer(cluster).learnerMasterId());

        TestCluster withoutMasters = ensemble(false);
        assertFalse(observer(withoutMasters).requestLearnerMaster(1), "observer masters off");
        assertTrue(observer(withoutMasters).isServing());
    }
}
