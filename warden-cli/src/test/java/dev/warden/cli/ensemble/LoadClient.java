package dev.warden.cli.ensemble;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * One client session of the write load: it cycles over its own keys, creating each and then
 * overwriting it, and books every write in the key's {@link KeyLedger}. A lost connection does
 * not end it: the client library fails over to another member and the load goes on, which is
 * what the tests want to see. An expired session is replaced by a new one.
 */
final class LoadClient implements Runnable {
    /** Opens a session of this client; called again after an expiry. */
    interface SessionFactory {
        ZooKeeper open() throws IOException;
    }

    private static final long PAUSE_AFTER_LOSS_MS = 20;

    final int clientId;
    private final List<KeyLedger> keys = new ArrayList<>();
    private final SessionFactory sessions;
    private final AtomicBoolean stop;
    private final AtomicLong acknowledged = new AtomicLong();
    private final AtomicLong unanswered = new AtomicLong();
    private final AtomicLong expirations = new AtomicLong();
    private final AtomicReference<Throwable> unexpected = new AtomicReference<>();
    private ZooKeeper zk;

    LoadClient(int clientId, String root, int keyCount, SessionFactory sessions, AtomicBoolean stop) {
        this.clientId = clientId;
        for (int k = 0; k < keyCount; k++) {
            keys.add(new KeyLedger(root + "/c" + clientId + "-k" + k));
        }
        this.sessions = sessions;
        this.stop = stop;
    }

    @Override
    public void run() {
        long op = 0;
        try {
            zk = sessions.open();
            while (!stop.get()) {
                writeOnce(keys.get((int) (op++ % keys.size())));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable t) {
            unexpected.set(t);
        } finally {
            closeSession();
        }
    }

    private void writeOnce(KeyLedger key) throws Exception {
        long seq = key.nextSeq();
        try {
            if (key.created) {
                zk.setData(key.path, key.value(seq), -1);
            } else {
                try {
                    zk.create(key.path, key.value(seq), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                } catch (KeeperException.NodeExistsException earlierCreateApplied) {
                    // an unanswered create of this key did happen; this one did not
                    key.created = true;
                    return;
                }
                key.created = true;
            }
            key.acknowledged(seq);
            acknowledged.incrementAndGet();
        } catch (KeeperException.ConnectionLossException lost) {
            key.unknown(seq);
            unanswered.incrementAndGet();
            Thread.sleep(PAUSE_AFTER_LOSS_MS);
        } catch (KeeperException.SessionExpiredException | KeeperException.SessionMovedException expired) {
            key.unknown(seq);
            unanswered.incrementAndGet();
            expirations.incrementAndGet();
            closeSession();
            zk = sessions.open();
        }
    }

    private void closeSession() {
        if (zk == null) {
            return;
        }
        try {
            zk.close(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    long acknowledged() {
        return acknowledged.get();
    }

    long unanswered() {
        return unanswered.get();
    }

    long expirations() {
        return expirations.get();
    }

    Throwable unexpected() {
        return unexpected.get();
    }

    /** Read only after the client's thread has ended. */
    List<KeyLedger> keys() {
        return keys;
    }
}
