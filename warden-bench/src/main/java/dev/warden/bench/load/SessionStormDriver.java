package dev.warden.bench.load;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Session storm: {@code sessions} threads each open a session, wait until it is established,
 * close it and wait for the close to be confirmed, over and over. Opening and closing a session
 * are both transactions, so this measures session churn through the log.
 */
final class SessionStormDriver implements LoadDriver {
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
            Thread worker = new Thread(this::churn, "session-storm-" + i);
            worker.setDaemon(true);
            workers.add(worker);
            worker.start();
        }
    }

    private void churn() {
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
