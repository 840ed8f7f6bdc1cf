package dev.warden.chaos.workload;

import dev.warden.chaos.history.History;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/**
 * Watches: the writer sets {@value #NODE} over and over; a watcher holds a persistent watch on it and
 * closes windows ({@code watch-window}) from one read of its version to the next, counting the
 * change events between them. Reads are asynchronous on purpose: their answers come on the client's
 * event thread in the server's order with the watch events, so "between two reads" is exact.
 * A disconnect voids the open window (events while away are not replayed; the watch is re-set on
 * reconnect and a new window starts).
 */
public final class WatchWorker extends Worker {
    public static final String WORKLOAD = "watch";
    public static final String NODE = "/chaos-watch";
    private final boolean writer;
    private long counter;

    // touched only on the event thread, or before the watch exists
    private long windowFrom = -1;
    private long windowStartNs;
    private long events;
    private long withZxid;
    private long outOfOrder;
    private long lastZxid = -1;
    private volatile boolean windowVoid;

    public WatchWorker(int client, History history, String connectString, int sessionTimeoutMs, long seed,
                       boolean writer) {
        super(client, history, connectString, sessionTimeoutMs, seed);
        this.writer = writer;
    }

    @Override
    protected void onNewSession(ZooKeeper zk) throws KeeperException, InterruptedException {
        WorkloadNodes.ensure(zk, NODE, "0");
        if (!writer) {
            windowVoid = true;
            // recorded, so a window without events can be told from a watch that was never added
            History.Pending added = history.invoke(client, WORKLOAD, "add-watch", NODE,
                    Map.of("session", zk.getSessionId()));
            try {
                zk.addWatch(NODE, AddWatchMode.PERSISTENT);
            } catch (KeeperException e) {
                added.unknown(e.code().toString());
                throw e;
            }
            added.ok(Map.of());
        }
    }

    @Override
    protected void onEvent(WatchedEvent event) {
        if (writer) {
            return;
        }
        if (event.getType() == Watcher.Event.EventType.None) {
            if (event.getState() != Watcher.Event.KeeperState.SyncConnected) {
                windowVoid = true;
            }
            return;
        }
        if (event.getType() == Watcher.Event.EventType.NodeDataChanged && NODE.equals(event.getPath())) {
            events++;
            long zxid = event.getZxid();
            if (zxid != WatchedEvent.NO_ZXID && zxid > 0) {
                withZxid++;
                if (zxid <= lastZxid) {
                    outOfOrder++;
                }
                lastZxid = zxid;
            }
        }
    }

    @Override
    protected void step(ZooKeeper zk) throws KeeperException, InterruptedException {
        if (writer) {
            zk.setData(NODE, WorkloadNodes.bytes(++counter), -1);
            Thread.sleep(20);
            return;
        }
        CountDownLatch answered = new CountDownLatch(1);
        zk.getData(NODE, false, (rc, path, ctx, data, stat) -> {
            // on the event thread, after every event the server sent before this answer
            if (rc == 0) {
                long version = stat.getVersion();
                if (!windowVoid && windowFrom >= 0) {
                    History.Pending window = history.invokeAt(windowStartNs, client, WORKLOAD, "watch-window", NODE,
                            Map.of("from", windowFrom, "to", version, "session", zk.getSessionId()));
                    window.ok(Map.of("events", events, "withZxid", withZxid, "outOfOrder", outOfOrder));
                }
                windowVoid = false;
                windowFrom = version;
                windowStartNs = history.nowNs();
                events = 0;
                withZxid = 0;
                outOfOrder = 0;
            } else {
                windowVoid = true;
            }
            answered.countDown();
        }, null);
        answered.await(20, TimeUnit.SECONDS);
        Thread.sleep(500 + random.nextInt(1_500));
    }
}
