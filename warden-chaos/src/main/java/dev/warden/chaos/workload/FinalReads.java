package dev.warden.chaos.workload;

import dev.warden.chaos.history.History;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * The reads after the faults, once the ensemble is whole: every element of the set (in every shard),
 * every item of the queue and every register (one {@code final} op each, key the node's path, or
 * {@code final-empty}), through one session after a sync. Nothing is recorded until all three are
 * read whole, so a failed attempt leaves no half a final state behind.
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
                List<Found> set = readChildren(zk, SetWorker.ROOT, true);
                List<Found> queue = readChildren(zk, QueueWorker.ROOT, false);
                List<Found> registers = readChildren(zk, RegisterWorker.ROOT, false);
                record(history, SetWorker.WORKLOAD, SetWorker.ROOT, set, true);
                record(history, QueueWorker.WORKLOAD, QueueWorker.ROOT, queue, false);
                recordRegisters(history, registers);
                return "final read: " + set.size() + " set elements, " + queue.size() + " queue items, "
                        + registers.size() + " registers";
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

    /**
     * Every child of {@code root}, or with {@code sharded} every child of every child, with its data
     * and stat; reads are pipelined (asynchronous, a thousand at a time) so a large set takes seconds.
     */
    private static List<Found> readChildren(ZooKeeper zk, String root, boolean sharded)
            throws KeeperException, InterruptedException {
        Zk.sync(zk, root, 15_000);
        List<String> parents = new ArrayList<>();
        if (sharded) {
            for (String shard : children(zk, root)) {
                parents.add(root + "/" + shard);
            }
        } else {
            parents.add(root);
        }
        List<Found> found = new ArrayList<>();
        for (String parent : parents) {
            List<String> paths = children(zk, parent).stream().map(child -> parent + "/" + child).toList();
            for (int from = 0; from < paths.size(); from += 1_000) {
                found.addAll(readAll(zk, paths.subList(from, Math.min(paths.size(), from + 1_000))));
            }
        }
        return found;
    }

    private static List<String> children(ZooKeeper zk, String path) throws KeeperException, InterruptedException {
        try {
            return zk.getChildren(path, false);
        } catch (KeeperException.NoNodeException never) {
            return List.of();
        }
    }

    private static List<Found> readAll(ZooKeeper zk, List<String> paths) throws KeeperException, InterruptedException {
        Found[] found = new Found[paths.size()];
        int[] codes = new int[paths.size()];
        java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(paths.size());
        for (int i = 0; i < paths.size(); i++) {
            int index = i;
            zk.getData(paths.get(i), false, (rc, path, ctx, data, stat) -> {
                codes[index] = rc;
                if (rc == 0) {
                    found[index] = new Found(path, WorkloadNodes.number(data), stat);
                }
                done.countDown();
            }, null);
        }
        if (!done.await(60, java.util.concurrent.TimeUnit.SECONDS)) {
            throw KeeperException.create(KeeperException.Code.OPERATIONTIMEOUT);
        }
        for (int code : codes) {
            if (code != 0) {
                throw KeeperException.create(KeeperException.Code.get(code));
            }
        }
        return List.of(found);
    }

    /** Each register's value and version ({@code final}), or {@code final-empty}: the checker knows which vanished. */
    private static void recordRegisters(History history, List<Found> found) {
        if (found.isEmpty()) {
            history.invoke(CLIENT, RegisterWorker.WORKLOAD, "final-empty", RegisterWorker.ROOT, Map.of()).ok(Map.of());
        }
        for (Found f : found) {
            history.invoke(CLIENT, RegisterWorker.WORKLOAD, "final", f.path(), Map.of())
                    .ok(Map.of("value", f.value(), "version", (long) f.stat().getVersion()));
        }
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
