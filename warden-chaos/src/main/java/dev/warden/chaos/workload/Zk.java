package dev.warden.chaos.workload;

import dev.warden.chaos.history.Outcome;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/** The Apache client as the workloads use it: connecting, syncing, and telling definite errors from unknown outcomes. */
public final class Zk {
    private Zk() {
    }

    /** A session, returned once connected; null if it did not connect in time (no quorum, say). */
    public static ZooKeeper connect(String connectString, int sessionTimeoutMs, Watcher watcher, long waitMs)
            throws IOException, InterruptedException {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(connectString, sessionTimeoutMs, event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
            if (watcher != null) {
                watcher.process(event);
            }
        });
        if (!connected.await(waitMs, TimeUnit.MILLISECONDS)) {
            zk.close();
            return null;
        }
        return zk;
    }

    /** ZooKeeper's sync, waited for: afterwards a read on this session sees every write committed before it. */
    public static void sync(ZooKeeper zk, String path, long timeoutMs) throws KeeperException, InterruptedException {
        CompletableFuture<Integer> done = new CompletableFuture<>();
        zk.sync(path, (rc, p, ctx) -> done.complete(rc), null);
        int rc;
        try {
            rc = done.get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e);
        } catch (TimeoutException e) {
            throw KeeperException.create(KeeperException.Code.OPERATIONTIMEOUT, path);
        }
        if (rc != 0) {
            throw KeeperException.create(KeeperException.Code.get(rc), path);
        }
    }

    /**
     * What an error says about a write: connection loss, a timeout, or a session that ended with
     * the request in flight leave it UNKNOWN (it may have been committed); any other answer is a
     * definite refusal.
     */
    public static Outcome outcomeOfWriteError(KeeperException e) {
        return switch (e.code()) {
            case CONNECTIONLOSS, OPERATIONTIMEOUT, SESSIONEXPIRED, SESSIONMOVED, REQUESTTIMEOUT, SYSTEMERROR,
                 MARSHALLINGERROR, RUNTIMEINCONSISTENCY, DATAINCONSISTENCY, UNIMPLEMENTED -> Outcome.UNKNOWN;
            default -> Outcome.FAIL;
        };
    }

    /** The session is gone for good: the client needs a new one. */
    public static boolean sessionOver(KeeperException e) {
        return e.code() == KeeperException.Code.SESSIONEXPIRED || e.code() == KeeperException.Code.SESSIONMOVED;
    }

    /** The number ZooKeeper appends to a sequential node's name. */
    public static long sequenceOf(String path) {
        return Long.parseLong(path.substring(path.length() - 10));
    }

    public static void closeQuietly(ZooKeeper zk) {
        if (zk == null) {
            return;
        }
        try {
            zk.close(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
