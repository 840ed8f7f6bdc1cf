package dev.warden.chaos.workload;

import dev.warden.chaos.history.History;
import java.util.Random;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/**
 * One client thread: one session at a time (a new one when the old expires), one operation at a
 * time, each recorded in the history by the subclass.
 */
public abstract class Worker implements Runnable {
    protected final int client;
    protected final History history;
    protected final Random random;
    private final String connectString;
    private final int sessionTimeoutMs;
    private volatile boolean stopping;
    private volatile ZooKeeper zk;
    private volatile boolean expired;

    protected Worker(int client, History history, String connectString, int sessionTimeoutMs, long seed) {
        this.client = client;
        this.history = history;
        this.connectString = connectString;
        this.sessionTimeoutMs = sessionTimeoutMs;
        this.random = new Random(seed);
    }

    public void stop() {
        stopping = true;
    }

    protected boolean stopping() {
        return stopping;
    }

    /**
     * Ends the current session before the next step (its ephemeral nodes go with it) and starts a
     * new one: for a step that may have left an ephemeral node it cannot name.
     */
    protected void abandonSession() {
        expired = true;
    }

    /** One operation (or a few that belong together) on the current session. */
    protected abstract void step(ZooKeeper zk) throws KeeperException, InterruptedException;

    /** Events of the session, on the client's event thread (watches included). */
    protected void onEvent(WatchedEvent event) {
    }

    /** A new session began (after the first connect or an expiry); called again until it returns without throwing. */
    protected void onNewSession(ZooKeeper zk) throws KeeperException, InterruptedException {
    }

    @Override
    public final void run() {
        try {
            boolean setUp = false;
            while (!stopping) {
                if (zk == null || expired) {
                    Zk.closeQuietly(zk);
                    expired = false;
                    setUp = false;
                    zk = Zk.connect(connectString, sessionTimeoutMs, this::handle, 10_000);
                    if (zk == null) {
                        continue;
                    }
                }
                if (!setUp) {
                    // until it succeeds on this session: a watch whose registration met a
                    // connection loss may not exist, and the client does not re-register it
                    try {
                        onNewSession(zk);
                        setUp = true;
                    } catch (KeeperException e) {
                        if (Zk.sessionOver(e)) {
                            expired = true;
                        }
                        Thread.sleep(100);
                        continue;
                    }
                }
                try {
                    step(zk);
                } catch (KeeperException e) {
                    if (Zk.sessionOver(e)) {
                        expired = true;
                    } else {
                        Thread.sleep(50);
                    }
                }
                Thread.sleep(5 + random.nextInt(15));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.io.IOException | RuntimeException e) {
            System.err.println("worker " + client + " stopped: " + e);
            e.printStackTrace();
        } finally {
            Zk.closeQuietly(zk);
        }
    }

    private void handle(WatchedEvent event) {
        if (event.getState() == Watcher.Event.KeeperState.Expired) {
            expired = true;
        }
        onEvent(event);
    }
}
