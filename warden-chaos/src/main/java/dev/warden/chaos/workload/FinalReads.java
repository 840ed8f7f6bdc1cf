package dev.warden.chaos.workload;

import dev.warden.chaos.history.History;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * The reads after the faults, once the ensemble is whole: every child of the set and of the queue
 * (one {@code final} op each, or {@code final-empty}), through one session after a sync. Nothing
 * is recorded until both are read whole, so a failed attempt leaves no half a final state behind.
 */
public final class FinalReads {
    public static final int CLIENT = 0;

    private record Found(String path, long value, Stat stat) {
    }

    private FinalReads() {
    }

    /** @return a line saying what was read, or why not */
    public static String read(String connectString, History history) throws InterruptedException {
        String lastError = "";
        for (int attempt = 1; attempt <= 5; attempt++) {
            ZooKeeper zk = null;
            try {
                zk = Zk.connect(connectString, 10_000, null, 15_000);
                if (zk == null) {
                    lastError = "no connection";
                    continue;
                }
                List<Found> set = readChildren(zk, SetWorker.ROOT);
                List<Found> queue = readChildren(zk, QueueWorker.ROOT);
                record(history, SetWorker.WORKLOAD, SetWorker.ROOT, set, true);
                record(history, QueueWorker.WORKLOAD, QueueWorker.ROOT, queue, false);
                return "final read: " + set.size() + " set elements, " + queue.size() + " queue items";
            } catch (KeeperException e) {
                lastError = e.code().name();
                Thread.sleep(1_000);
            } catch (java.io.IOException e) {
                lastError = e.toString();
                Thread.sleep(1_000);
            } finally {
                Zk.closeQuietly(zk);
            }
        }
        return "final read failed 5 times (" + lastError + "): set and queue not read";
    }

    private static List<Found> readChildren(ZooKeeper zk, String root) throws KeeperException, InterruptedException {
        Zk.sync(zk, root, 15_000);
        List<String> children;
        try {
            children = zk.getChildren(root, false);
        } catch (KeeperException.NoNodeException never) {
            children = List.of();
        }
        List<Found> found = new ArrayList<>();
        for (String child : children) {
            Stat stat = new Stat();
            byte[] data = zk.getData(root + "/" + child, false, stat);
            found.add(new Found(root + "/" + child, Paths.number(data), stat));
        }
        return found;
    }

    private static void record(History history, String workload, String root, List<Found> found, boolean withSeq) {
        if (found.isEmpty()) {
            history.invoke(CLIENT, workload, "final-empty", root, Map.of()).ok(Map.of());
        }
        for (Found f : found) {
            Map<String, Long> out = withSeq
                    ? Map.of("value", f.value(), "seq", Zk.sequenceOf(f.path()), "czxid", f.stat().getCzxid())
                    : Map.of("value", f.value());
            history.invoke(CLIENT, workload, "final", f.path(), Map.of()).ok(out);
        }
    }
}
