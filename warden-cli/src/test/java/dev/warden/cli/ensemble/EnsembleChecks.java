package dev.warden.cli.ensemble;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.warden.cli.cluster.LocalCluster;
import dev.warden.cli.cluster.MemberMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;

/** The end-of-test verdicts: one leader, no acknowledged write lost, every member's tree the same. */
final class EnsembleChecks {
    private static final int CHECK_SESSION_TIMEOUT_MS = 10_000;

    private EnsembleChecks() {
    }

    static void exactlyOneLeader(LocalCluster cluster) {
        SortedMap<Integer, MemberMode> modes = cluster.modes();
        long leaders = modes.values().stream().filter(m -> m == MemberMode.LEADER).count();
        assertEquals(1, leaders, "expected exactly one leader, modes are " + modes + "; " + cluster.describe());
    }

    /**
     * Reads every member's tree directly and checks each against the load's ledgers and the
     * members pairwise.
     */
    static void allMembersAgreeAndKeepEveryAcknowledgedWrite(LocalCluster cluster, List<KeyLedger> ledgers)
            throws Exception {
        Map<Integer, SortedMap<String, TreeDump.Node>> trees = new TreeMap<>();
        for (int id : cluster.ids()) {
            try (ZooKeeper zk = Ensembles.connect(cluster.connectString(id), CHECK_SESSION_TIMEOUT_MS)) {
                trees.put(id, TreeDump.read(zk));
            }
        }
        for (Map.Entry<Integer, SortedMap<String, TreeDump.Node>> tree : trees.entrySet()) {
            List<String> problems = new ArrayList<>();
            for (KeyLedger ledger : ledgers) {
                TreeDump.Node node = tree.getValue().get(ledger.path);
                problems.addAll(ledger.check(node == null ? null
                        : node.data().getBytes(java.nio.charset.StandardCharsets.UTF_8)));
            }
            if (!problems.isEmpty()) {
                throw new AssertionError("member " + tree.getKey() + " lost or garbled writes (" + problems.size()
                        + "): " + problems.subList(0, Math.min(10, problems.size())) + "; " + cluster.describe());
            }
        }
        int first = cluster.ids().get(0);
        for (int other : cluster.ids().subList(1, cluster.ids().size())) {
            Optional<String> difference = TreeDump.firstDifference("member " + first, trees.get(first),
                    "member " + other, trees.get(other));
            if (difference.isPresent()) {
                throw new AssertionError("members' trees differ: " + difference.get() + "; " + cluster.describe());
            }
        }
    }

    /** Whether {@code path} exists as seen by member {@code id} after a sync. */
    static boolean existsOn(LocalCluster cluster, int id, String path) throws Exception {
        try (ZooKeeper zk = Ensembles.connect(cluster.connectString(id), CHECK_SESSION_TIMEOUT_MS)) {
            TreeDump.sync(zk, "/");
            try {
                return zk.exists(path, false) != null;
            } catch (KeeperException.NoNodeException e) {
                return false;
            }
        }
    }
}
