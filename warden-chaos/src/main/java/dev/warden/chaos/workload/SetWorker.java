package dev.warden.chaos.workload;

import dev.warden.chaos.history.History;
import dev.warden.chaos.history.Outcome;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * Adds unique values as sequential children of a shard under {@value #ROOT} ({@code add}, key the
 * shard: OK output seq and czxid). The workers move to a new shard every {@value #ADDS_PER_SHARD}
 * adds between them, so that no one listing of children outgrows a client's packet limit (1 MB by
 * default: a 20-minute run adds some 90,000 elements).
 */
public final class SetWorker extends Worker {
    public static final String WORKLOAD = "set";
    public static final String ROOT = "/chaos-set";
    static final int ADDS_PER_SHARD = 5_000;
    private final AtomicLong nextValue;
    private final AtomicLong adds;
    private String shardMade = "";

    public SetWorker(int client, History history, String connectString, int sessionTimeoutMs, long seed,
                     AtomicLong nextValue, AtomicLong adds) {
        super(client, history, connectString, sessionTimeoutMs, seed);
        this.nextValue = nextValue;
        this.adds = adds;
    }

    @Override
    protected void onNewSession(ZooKeeper zk) throws KeeperException, InterruptedException {
        WorkloadNodes.ensure(zk, ROOT, "");
    }

    @Override
    protected void step(ZooKeeper zk) throws KeeperException, InterruptedException {
        String shard = ROOT + "/s" + adds.getAndIncrement() / ADDS_PER_SHARD;
        if (!shard.equals(shardMade)) {
            WorkloadNodes.ensure(zk, shard, "");
            shardMade = shard;
        }
        long value = nextValue.incrementAndGet();
        History.Pending pending = history.invoke(client, WORKLOAD, "add", shard, Map.of("value", value));
        try {
            Stat stat = new Stat();
            String path = zk.create(shard + "/e-", WorkloadNodes.bytes(value), ZooDefs.Ids.OPEN_ACL_UNSAFE,
                    CreateMode.PERSISTENT_SEQUENTIAL, stat);
            pending.ok(Map.of("seq", Zk.sequenceOf(path), "czxid", stat.getCzxid()));
        } catch (KeeperException e) {
            if (Zk.outcomeOfWriteError(e) == Outcome.UNKNOWN) {
                pending.unknown(e.code().name());
            } else {
                pending.fail(e.code().name(), Map.of());
            }
            throw e;
        } catch (InterruptedException e) {
            pending.unknown("INTERRUPTED");
            throw e;
        }
    }
}
