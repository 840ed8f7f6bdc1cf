package dev.warden.chaos.workload;

import dev.warden.chaos.history.History;
import dev.warden.chaos.history.Op;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * CAS registers: each key a znode created with data "0" (version 0). Operations: {@code read}
 * (sync, then getData: linearizable), {@code read-local} (getData alone: only monotonic), and
 * {@code cas} (setData with the version this client last saw). The workers move to a new key every
 * {@code opsPerKey} operations between them, which keeps each key's history small enough to check.
 */
public final class RegisterWorker extends Worker {
    public static final String WORKLOAD = "register";
    public static final String ROOT = "/chaos-reg";
    private final AtomicLong sharedOps;
    private final int opsPerKey;
    private final AtomicLong nextValue;
    private long lastSeenVersion;
    private String lastKey = "";

    public RegisterWorker(int client, History history, String connectString, int sessionTimeoutMs, long seed,
                          AtomicLong sharedOps, int opsPerKey, AtomicLong nextValue) {
        super(client, history, connectString, sessionTimeoutMs, seed);
        this.sharedOps = sharedOps;
        this.opsPerKey = opsPerKey;
        this.nextValue = nextValue;
    }

    @Override
    protected void step(ZooKeeper zk) throws KeeperException, InterruptedException {
        String key = ROOT + "/k" + (sharedOps.getAndIncrement() / opsPerKey);
        if (!key.equals(lastKey)) {
            ensureKey(zk, key);
            lastKey = key;
            lastSeenVersion = 0;
        }
        long session = zk.getSessionId();
        double dice = random.nextDouble();
        if (dice < 0.35) {
            read(zk, key, session, true);
        } else if (dice < 0.5) {
            read(zk, key, session, false);
        } else {
            cas(zk, key, session);
        }
    }

    private static void ensureKey(ZooKeeper zk, String key) throws KeeperException, InterruptedException {
        for (String path : new String[] {ROOT, key}) {
            try {
                zk.create(path, "0".getBytes(StandardCharsets.US_ASCII), ZooDefs.Ids.OPEN_ACL_UNSAFE,
                        CreateMode.PERSISTENT);
            } catch (KeeperException.NodeExistsException exists) {
                // made by another worker, with the same data
            }
        }
    }

    private void read(ZooKeeper zk, String key, long session, boolean synced)
            throws KeeperException, InterruptedException {
        History.Pending pending = history.invoke(client, WORKLOAD, synced ? "read" : "read-local", key,
                Map.of("session", session));
        try {
            if (synced) {
                Zk.sync(zk, key, 15_000);
            }
            Stat stat = new Stat();
            byte[] data = zk.getData(key, false, stat);
            long value = Long.parseLong(new String(data, StandardCharsets.US_ASCII));
            pending.ok(Map.of("value", value, "version", (long) stat.getVersion()));
            lastSeenVersion = stat.getVersion();
        } catch (KeeperException e) {
            pending.fail(e.code().name(), Map.of());
            throw e;
        }
    }

    private void cas(ZooKeeper zk, String key, long session) throws KeeperException, InterruptedException {
        long value = nextValue.incrementAndGet();
        long expect = lastSeenVersion;
        History.Pending pending = history.invoke(client, WORKLOAD, "cas", key,
                Map.of("session", session, "expect", expect, "value", value));
        try {
            Stat stat = zk.setData(key, Long.toString(value).getBytes(StandardCharsets.US_ASCII), (int) expect);
            pending.ok(Map.of("version", (long) stat.getVersion()));
            lastSeenVersion = stat.getVersion();
        } catch (KeeperException e) {
            Op op = switch (Zk.outcomeOfWriteError(e)) {
                case UNKNOWN -> pending.unknown(e.code().name());
                default -> pending.fail(e.code().name(), Map.of());
            };
            if (op.outcome() != dev.warden.chaos.history.Outcome.FAIL
                    || e.code() != KeeperException.Code.BADVERSION) {
                throw e;
            }
        } catch (InterruptedException e) {
            pending.unknown("INTERRUPTED");
            throw e;
        }
    }
}
