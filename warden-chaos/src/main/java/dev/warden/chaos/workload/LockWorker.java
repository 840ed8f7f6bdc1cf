package dev.warden.chaos.workload;

import dev.warden.chaos.history.History;
import dev.warden.chaos.history.Outcome;
import java.util.List;
import java.util.Map;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * A lock with fencing tokens: contenders create ephemeral sequential nodes under {@value #LOCKS};
 * the lowest holds the lock ({@code acquire}) and its node's czxid is its token. A holder writes the
 * guarded node {@value #GUARDED} only by CAS and only if the token there is not newer than its own
 * ({@code fenced-write}, input token, OK output version), then releases by deleting its node.
 */
public final class LockWorker extends Worker {
    public static final String WORKLOAD = "lock";
    public static final String LOCKS = "/chaos-lock";
    public static final String GUARDED = "/chaos-fenced";

    public LockWorker(int client, History history, String connectString, int sessionTimeoutMs, long seed) {
        super(client, history, connectString, sessionTimeoutMs, seed);
    }

    @Override
    protected void onNewSession(ZooKeeper zk) throws KeeperException, InterruptedException {
        WorkloadNodes.ensure(zk, LOCKS, "");
        WorkloadNodes.ensure(zk, GUARDED, "0");
    }

    @Override
    protected void step(ZooKeeper zk) throws KeeperException, InterruptedException {
        Stat created = new Stat();
        String mine;
        try {
            mine = zk.create(LOCKS + "/n-", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE,
                    CreateMode.EPHEMERAL_SEQUENTIAL, created);
        } catch (KeeperException e) {
            // a create whose answer was lost may have made a node this client cannot name, which would
            // hold the lock for as long as the session lives: end the session, and the node with it
            abandonSession();
            throw e;
        }
        long token = created.getCzxid();
        try {
            History.Pending acquire = history.invoke(client, WORKLOAD, "acquire", mine, Map.of("token", token));
            long deadline = System.nanoTime() + 3_000_000_000L;
            boolean held = false;
            while (System.nanoTime() < deadline) {
                List<String> children = zk.getChildren(LOCKS, false);
                String lowest = children.stream().min(String::compareTo).orElse("");
                if (mine.endsWith("/" + lowest)) {
                    held = true;
                    break;
                }
                Thread.sleep(30);
            }
            if (!held) {
                acquire.fail("TIMEOUT", Map.of());
                return;
            }
            acquire.ok(Map.of());
            for (int i = 0; i < 3; i++) {
                fencedWrite(zk, token);
            }
        } finally {
            try {
                zk.delete(mine, -1);
            } catch (KeeperException.NoNodeException gone) {
                // the session ended and took the node with it
            } catch (KeeperException e) {
                // the release went unanswered: the node may still stand, holding the lock for as long
                // as this session lives, so the session ends instead
                abandonSession();
            }
        }
    }

    private void fencedWrite(ZooKeeper zk, long token) throws KeeperException, InterruptedException {
        History.Pending pending = history.invoke(client, WORKLOAD, "fenced-write", GUARDED, Map.of("token", token));
        try {
            Stat stat = new Stat();
            long current = WorkloadNodes.number(zk.getData(GUARDED, false, stat));
            if (current > token) {
                pending.fail("FENCED", Map.of("seen", current));
                return;
            }
            Stat written = zk.setData(GUARDED, WorkloadNodes.bytes(token), stat.getVersion());
            pending.ok(Map.of("version", (long) written.getVersion()));
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
