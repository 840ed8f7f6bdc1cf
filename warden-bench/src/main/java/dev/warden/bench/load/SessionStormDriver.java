package dev.warden.bench.load;

import dev.warden.client.ConnectString;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Session storm: {@code sessions} threads each open a session, wait until it is established,
 * close it and wait for the close to be confirmed, over and over. Opening and closing a session
 * are both transactions, so this measures session churn through the log.
 *
 * <p>In plaintext each cycle is spoken on the wire ({@link WireSession}), worker i on server
 * i mod n of the connect string, so the load client costs little beside the server. Over TLS the
 * client library opens the session, since the TLS handshake is part of what is measured there.
 */
final class SessionStormDriver implements LoadDriver {
    private static final int READ_TIMEOUT_MS = 30_000;
    private final LoadSpec spec;
    private final LoadRecorder recorder;
    private final List<Thread> workers = new ArrayList<>();
    private volatile boolean running = true;

    SessionStormDriver(LoadSpec spec, LoadRecorder recorder) {
        this.spec = spec;
        this.recorder = recorder;
    }

    @Override
    public void start() {
        for (int i = 0; i < spec.sessions(); i++) {
            int workerIndex = i;
            Thread worker = new Thread(() -> churn(workerIndex), "session-storm-" + i);
            worker.setDaemon(true);
            workers.add(worker);
            worker.start();
        }
    }

    private void churn(int workerIndex) {
        if (!spec.tls().enabled()) {
            churnOnTheWire(workerIndex);
            return;
        }
        while (running) {
            long startNs = System.nanoTime();
            try {
                LoadClient client = spec.client().connect(spec.connectString(), spec.sessionTimeoutMs(),
                        spec.maxFrameBytes(), spec.tls());
                client.close();
                recorder.success(startNs);
            } catch (IOException e) {
                recorder.error("CONNECT_FAILED");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void churnOnTheWire(int workerIndex) {
        List<InetSocketAddress> servers = ConnectString.parse(spec.connectString()).hosts();
        InetSocketAddress home = servers.get(workerIndex % servers.size());
        while (running) {
            long startNs = System.nanoTime();
            try (WireSession session = WireSession.open(home, spec.sessionTimeoutMs(), READ_TIMEOUT_MS)) {
                if (session == null) {
                    recorder.error("SESSION_REFUSED");
                    continue;
                }
                int rc = session.closeSession();
                if (rc == 0) {
                    recorder.success(startNs);
                } else {
                    recorder.error(rc);
                }
            } catch (IOException e) {
                recorder.error("CONNECT_FAILED");
            }
        }
    }

    @Override
    public void stopAndDrain(long timeoutMs) throws InterruptedException {
        running = false;
        long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        for (Thread worker : workers) {
            long leftMs = TimeUnit.NANOSECONDS.toMillis(deadlineNs - System.nanoTime());
            if (leftMs > 0) {
                worker.join(leftMs);
            }
        }
    }
}
