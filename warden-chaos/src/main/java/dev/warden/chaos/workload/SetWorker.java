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

/** Adds unique values as sequential children of {@value #ROOT} ({@code add}: OK output seq and czxid). */
public final class SetWorker extends Worker {
    public static final String WORKLOAD = "set";
    public static final String ROOT = "/chaos-set";
    private final AtomicLong nextValue;

    public SetWorker(int client, History history, String connectString, int sessionTimeoutMs, long seed,
                     AtomicLong nextValue) {
        super(client, history, connectString, sessionTimeoutMs, seed);
        this.nextValue = nextValue;
    }

    @Override
    protected void onNewSession(ZooKeeper zk) throws KeeperException, InterruptedException {
        Paths.ensure(zk, ROOT, "");
    }

    @Override
    protected void step(ZooKeeper zk) throws KeeperException, InterruptedException {
        long value = nextValue.incrementAndGet();
        History.Pending pending = history.invoke(client, WORKLOAD, "add", ROOT, Map.of("value", value));
        try {
            Stat stat = new Stat();
            String path = zk.create(ROOT + "/e-", Paths.bytes(value), ZooDefs.Ids.OPEN_ACL_UNSAFE,
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
