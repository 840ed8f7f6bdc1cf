package dev.warden.cli.crash;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/** Several {@link LoadWorker}s, each on its own client session, running against one server. */
final class LoadRun {
    static final int SESSION_TIMEOUT_MS = 10_000;
    private static final long CONNECT_TIMEOUT_MS = 30_000;
    private static final long CLOSE_TIMEOUT_MS = 2_000;
    private static final long JOIN_TIMEOUT_MS = 60_000;

    private final List<ZooKeeper> clients = new ArrayList<>();
    private final List<LoadWorker> workers = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicBoolean stop = new AtomicBoolean();

    /** Connects one client per ledger and starts its worker. */
    static LoadRun start(String connectString, List<Ledger> ledgers, int cycle, long seed)
            throws IOException, InterruptedException {
        LoadRun run = new LoadRun();
        for (Ledger ledger : ledgers) {
            ZooKeeper zk = connect(connectString);
            run.clients.add(zk);
            run.workers.add(new LoadWorker(zk, ledger, cycle, seed * 1_000_003L + cycle * 131L + ledger.workerId, run.stop));
        }
        for (int i = 0; i < run.workers.size(); i++) {
            Thread thread = new Thread(run.workers.get(i), "load-" + cycle + "-" + i);
            run.threads.add(thread);
            thread.start();
        }
        return run;
    }

    /** A connected client, or an exception if the session is not up in time. */
    static ZooKeeper connect(String connectString) throws IOException, InterruptedException {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(connectString, SESSION_TIMEOUT_MS, event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        });
        if (!connected.await(CONNECT_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
            zk.close();
            throw new IOException("no session with " + connectString + " within " + CONNECT_TIMEOUT_MS + " ms");
        }
        return zk;
    }

    /**
     * Asks the workers to stop after their current request, waits for them, closes the clients.
     * After a kill the workers end on their own with a lost connection.
     */
    void stopAndJoin() throws InterruptedException {
        stop.set(true);
        for (Thread thread : threads) {
            thread.join(JOIN_TIMEOUT_MS);
            if (thread.isAlive()) {
                throw new IllegalStateException(thread.getName() + " did not stop");
            }
        }
        // in parallel: a client whose server died closes only after a failed reconnect attempt
        List<Thread> closers = new ArrayList<>();
        for (ZooKeeper zk : clients) {
            Thread closer = new Thread(() -> {
                try {
                    zk.close((int) CLOSE_TIMEOUT_MS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "close-" + closers.size());
            closers.add(closer);
            closer.start();
        }
        for (Thread closer : closers) {
            closer.join();
        }
    }

    /** Total acknowledged requests across the workers. */
    int acknowledged() {
        return workers.stream().mapToInt(LoadWorker::acknowledged).sum();
    }

    /** The first wrong answer any worker got, or null. */
    Throwable unexpected() {
        return workers.stream().map(LoadWorker::unexpected).filter(t -> t != null).findFirst().orElse(null);
    }
}
