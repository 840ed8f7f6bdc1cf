package dev.warden.cli.crash;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * What one load worker was told (acknowledged) and what it never heard back about (in flight
 * when the server died), across every kill/restart cycle. Confined to its worker while the load
 * runs; read by the test only after the worker has stopped.
 */
final class Ledger {
    static final String ROOT = "/crash";

    final int workerId;
    /** Child name under {@link #ROOT} to the data the create carried; plain, sequential and multi. */
    final Map<String, byte[]> ackedCreates = new LinkedHashMap<>();
    /** Plain creates sent but never answered: each may or may not have happened. */
    final Map<String, byte[]> uncertainCreates = new HashMap<>();
    /** Two-node multis never answered: both nodes or neither. */
    final List<List<String>> uncertainMultis = new ArrayList<>();
    /** Payloads of every sequential create sent (answered or not), to spot a double apply. */
    final Set<String> sequentialPayloads = new HashSet<>();
    /** Version of {@link #counterPath()} from the last acknowledged setData (or last verification). */
    int counterVersion;
    /** A setData to counterVersion + 1 was sent and never answered. */
    boolean counterUncertain;
    /** In-flight requests judged after restarts: found applied, found absent (for the report). */
    int inFlightApplied;
    int inFlightAbsent;

    Ledger(int workerId) {
        this.workerId = workerId;
    }

    String counterPath() {
        return ROOT + "/v" + workerId;
    }

    /** The data the counter must hold at a version: it names the version, so the pair is checkable. */
    static byte[] counterData(int version) {
        return ("version " + version).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Checks the recovered tree against this ledger, then forgets the uncertainty it resolved.
     *
     * @param children   the children of {@link #ROOT} after the restart
     * @param checkAllData read back the data of every acknowledged create, not only its existence
     */
    void verify(ZooKeeper zk, Set<String> children, boolean checkAllData) throws Exception {
        for (Map.Entry<String, byte[]> acked : ackedCreates.entrySet()) {
            assertTrue(children.contains(acked.getKey()), "acknowledged create lost: " + acked.getKey());
        }
        if (checkAllData) {
            for (Map.Entry<String, byte[]> acked : ackedCreates.entrySet()) {
                assertArrayEquals(acked.getValue(), zk.getData(ROOT + "/" + acked.getKey(), false, null),
                        "data of acknowledged create " + acked.getKey());
            }
        }
        for (Map.Entry<String, byte[]> maybe : uncertainCreates.entrySet()) {
            tally(children.contains(maybe.getKey()));
            if (children.contains(maybe.getKey())) {
                assertArrayEquals(maybe.getValue(), zk.getData(ROOT + "/" + maybe.getKey(), false, null),
                        "an unacknowledged create that survived must carry its whole data: " + maybe.getKey());
            }
        }
        for (List<String> multi : uncertainMultis) {
            long present = multi.stream().filter(children::contains).count();
            tally(present > 0);
            assertTrue(present == 0 || present == multi.size(),
                    "half of an unacknowledged multi survived: " + multi + " present " + present);
        }
        verifySequentials(zk, children);
        Stat stat = new Stat();
        byte[] data = zk.getData(counterPath(), false, stat);
        int newest = counterUncertain ? counterVersion + 1 : counterVersion;
        assertTrue(stat.getVersion() >= counterVersion && stat.getVersion() <= newest,
                counterPath() + " has version " + stat.getVersion() + ", expected " + counterVersion
                        + (counterUncertain ? " or " + newest : ""));
        assertArrayEquals(counterData(stat.getVersion()), data, counterPath() + " data does not match its version");
        if (counterUncertain) {
            tally(stat.getVersion() == newest);
        }
        counterVersion = stat.getVersion();
        counterUncertain = false;
        // an uncertain op's fate is now known; a later cycle must not judge it again
        uncertainCreates.keySet().removeIf(name -> {
            if (children.contains(name)) {
                ackedCreates.put(name, uncertainCreates.get(name));
            }
            return true;
        });
        uncertainMultis.clear();
    }

    /**
     * Every sequential node of this worker carries a payload it sent, and no payload appears on
     * two nodes (a retried or replayed create applied twice). Newly found nodes join the acked set.
     */
    private void verifySequentials(ZooKeeper zk, Set<String> children) throws Exception {
        String prefix = sequentialPrefix(workerId);
        Map<String, String> nodeByPayload = new HashMap<>();
        Map<String, byte[]> found = new HashMap<>();
        for (String child : children) {
            if (!child.startsWith(prefix)) {
                continue;
            }
            byte[] known = ackedCreates.get(child);
            byte[] data = known != null ? known : zk.getData(ROOT + "/" + child, false, null);
            String payload = new String(data, StandardCharsets.UTF_8);
            assertTrue(sequentialPayloads.contains(payload), "sequential node " + child + " holds unsent " + payload);
            String twin = nodeByPayload.put(payload, child);
            assertTrue(twin == null, "a sequential create was applied twice: " + twin + " and " + child);
            if (known == null) {
                found.put(child, data);
            }
        }
        ackedCreates.putAll(found);
    }

    private void tally(boolean applied) {
        if (applied) {
            inFlightApplied++;
        } else {
            inFlightAbsent++;
        }
    }

    static String sequentialPrefix(int workerId) {
        return "s" + workerId + "-";
    }
}
