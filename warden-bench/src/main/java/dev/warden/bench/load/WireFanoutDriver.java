package dev.warden.bench.load;

import dev.warden.client.ConnectString;
import dev.warden.protocol.GetDataRequest;
import dev.warden.protocol.OpCode;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Watch fan-out with the watchers spoken on the wire ({@link WireSession}): one thread holds
 * every watcher's socket. A round writes getData with a watch on every socket, reads every
 * reply, has the writer (a client library session) change the node once, and reads one
 * notification from every socket; its latency runs from sending the setData until the last
 * notification is read. Reading the sockets one after the other costs nothing in that figure:
 * the round ends with the last notification whichever order they are read in.
 *
 * <p>Watcher j (from 1) is placed on server j mod n of the connect string, as the library
 * clients of {@link FanoutDriver} are.
 */
final class WireFanoutDriver implements LoadDriver {
    private static final int READ_TIMEOUT_MS = 30_000;
    private static final int CONNECT_PARALLELISM = 8;

    private final LoadSpec spec;
    private final LoadClient writer;
    private final LoadRecorder recorder;
    private final String serverPath;
    private final byte[] value;
    private final List<WireSession> watchers = new ArrayList<>();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private Thread thread;
    private volatile boolean running = true;

    WireFanoutDriver(LoadSpec spec, LoadClient writer, LoadRecorder recorder) {
        this.spec = spec;
        this.writer = writer;
        this.recorder = recorder;
        ConnectString connect = ConnectString.parse(spec.connectString());
        this.serverPath = connect.chroot() + LoadSetup.fanoutNode(spec);
        this.value = LoadSetup.value(spec.valueSizeBytes());
    }

    /**
     * Opens every watcher's session before the run starts, so the warm-up already runs rounds. A
     * few at a time: each is a logged transaction, and 10,000 opened one by one could take longer
     * than the first ones' session timeout.
     */
    void connectWatchers() throws IOException, InterruptedException {
        List<InetSocketAddress> servers = ConnectString.parse(spec.connectString()).hosts();
        ExecutorService pool = Executors.newFixedThreadPool(CONNECT_PARALLELISM);
        try {
            List<Future<WireSession>> opening = new ArrayList<>();
            for (int j = 1; j <= spec.watchers(); j++) {
                InetSocketAddress home = servers.get(j % servers.size());
                opening.add(pool.submit(() -> WireSession.open(home, spec.sessionTimeoutMs(), READ_TIMEOUT_MS)));
            }
            IOException failure = null;
            for (int j = 0; j < opening.size(); j++) {
                try {
                    WireSession session = opening.get(j).get();
                    if (session == null) {
                        failure = failure != null ? failure : new IOException("watcher " + (j + 1) + ": "
                                + servers.get((j + 1) % servers.size()) + " refused the session");
                    } else {
                        watchers.add(session);
                    }
                } catch (ExecutionException e) {
                    failure = failure != null ? failure
                            : new IOException("watcher " + (j + 1) + ": " + e.getCause(), e.getCause());
                }
            }
            if (failure != null) {
                closeWatchers();
                throw failure;
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Override
    public void start() {
        thread = new Thread(this::rounds, "fanout-watchers");
        thread.setDaemon(true);
        thread.start();
    }

    private void rounds() {
        try {
            while (running) {
                if (!arm()) {
                    continue;
                }
                long firedAtNs = System.nanoTime();
                writer.setData(LoadSetup.fanoutNode(spec), value, rc -> {
                    if (rc != 0) {
                        recorder.error(rc);
                    }
                });
                awaitNotifications();
                recorder.success(firedAtNs);
            }
        } catch (IOException e) {
            // a lost or silent server ends the rounds; the run shows it as an error and no more rounds
            recorder.error("CONNECTION_LOSS");
        } finally {
            stopped.countDown();
        }
    }

    /** Sets a data watch through every watcher; returns false when any getData failed. */
    private boolean arm() throws IOException {
        GetDataRequest watch = new GetDataRequest(serverPath, true);
        for (WireSession watcher : watchers) {
            watcher.write(OpCode.GET_DATA, watch);
            watcher.flush();
        }
        boolean allSet = true;
        for (WireSession watcher : watchers) {
            int err = watcher.read().header().err();
            if (err != 0) {
                recorder.error(err);
                allSet = false;
            }
        }
        return allSet;
    }

    private void awaitNotifications() throws IOException {
        for (WireSession watcher : watchers) {
            WireSession.Frame frame;
            do {
                frame = watcher.read();
            } while (frame.header().xid() != OpCode.XID_NOTIFICATION);
        }
    }

    @Override
    public void stopAndDrain(long timeoutMs) throws InterruptedException {
        running = false;
        if (thread != null) {
            stopped.await(timeoutMs, TimeUnit.MILLISECONDS);
        }
        closeWatchers();
    }

    private void closeWatchers() {
        for (WireSession watcher : watchers) {
            try (watcher) {
                watcher.closeSession();
            } catch (IOException e) {
                // the session expires on its own; nothing else of the run depends on it
            }
        }
        watchers.clear();
    }
}
