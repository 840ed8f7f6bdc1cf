package dev.warden.chaos.workload;

import dev.warden.chaos.history.History;
import dev.warden.chaos.history.Outcome;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * The queue of ZooKeeper's recipes: a producer {@code enqueue}s values as sequential children of
 * {@value #ROOT}; a consumer reads the lowest child and deletes it, and owns the item only if its
 * delete is acknowledged ({@code dequeue}, input value).
 */
public final class QueueWorker extends Worker {
    public static final String WORKLOAD = "queue";
    public static final String ROOT = "/chaos-queue";
    private final boolean producer;
    private final AtomicLong nextValue;

    public QueueWorker(int client, History history, String connectString, int sessionTimeoutMs, long seed,
                       boolean producer, AtomicLong nextValue) {
        super(client, history, connectString, sessionTimeoutMs, seed);
        this.producer = producer;
        this.nextValue = nextValue;
    }

    @Override
    protected void onNewSession(ZooKeeper zk) throws KeeperException, InterruptedException {
        WorkloadNodes.ensure(zk, ROOT, "");
    }

    @Override
    protected void step(ZooKeeper zk) throws KeeperException, InterruptedException {
        if (producer) {
            enqueue(zk);
        } else {
            dequeue(zk);
        }
    }

    private void enqueue(ZooKeeper zk) throws KeeperException, InterruptedException {
        long value = nextValue.incrementAndGet();
        History.Pending pending = history.invoke(client, WORKLOAD, "enqueue", ROOT, Map.of("value", value));
        try {
            String path = zk.create(ROOT + "/q-", WorkloadNodes.bytes(value), ZooDefs.Ids.OPEN_ACL_UNSAFE,
                    CreateMode.PERSISTENT_SEQUENTIAL);
            pending.ok(Map.of("seq", Zk.sequenceOf(path)));
        } catch (KeeperException e) {
            record(pending, e);
            throw e;
        } catch (InterruptedException e) {
            pending.unknown("INTERRUPTED");
            throw e;
        }
    }

    private void dequeue(ZooKeeper zk) throws KeeperException, InterruptedException {
        List<String> children = zk.getChildren(ROOT, false);
        if (children.isEmpty()) {
            Thread.sleep(20);
            return;
        }
        String lowest = children.stream().min(String::compareTo).orElseThrow();
        long value;
        try {
            value = WorkloadNodes.number(zk.getData(ROOT + "/" + lowest, false, null));
        } catch (KeeperException.NoNodeException takenAlready) {
            return;
        }
        History.Pending pending = history.invoke(client, WORKLOAD, "dequeue", ROOT + "/" + lowest,
                Map.of("value", value));
        try {
            zk.delete(ROOT + "/" + lowest, -1);
            pending.ok(Map.of());
        } catch (KeeperException e) {
            record(pending, e);
            if (!(e instanceof KeeperException.NoNodeException)) {
                throw e;
            }
        } catch (InterruptedException e) {
            pending.unknown("INTERRUPTED");
            throw e;
        }
    }

    private static void record(History.Pending pending, KeeperException e) {
        if (Zk.outcomeOfWriteError(e) == Outcome.UNKNOWN) {
            pending.unknown(e.code().name());
        } else {
            pending.fail(e.code().name(), Map.of());
        }
    }
}
