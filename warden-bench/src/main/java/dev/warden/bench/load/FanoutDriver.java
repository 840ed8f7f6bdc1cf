package dev.warden.bench.load;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Watch fan-out: every watcher session sets a data watch on one node; once all are set, the
 * writer changes the node once. A round's latency runs from sending that setData until the last
 * watcher has its notification; then the watchers re-arm and the next round starts.
 */
final class FanoutDriver implements LoadDriver {
    private final String nodePath;
    private final LoadClient writer;
    private final List<LoadClient> watchers;
    private final LoadRecorder recorder;
    private final byte[] value;
    private final AtomicInteger armed = new AtomicInteger();
    private final AtomicInteger unseen = new AtomicInteger();
    private volatile long firedAtNs;
    private volatile boolean running = true;
    private volatile boolean idle;

    FanoutDriver(LoadSpec spec, List<LoadClient> clients, LoadRecorder recorder) {
        this.nodePath = LoadSetup.fanoutNode(spec);
        this.writer = clients.get(0);
        this.watchers = List.copyOf(clients.subList(1, clients.size()));
        this.recorder = recorder;
        this.value = LoadSetup.value(spec.valueSizeBytes());
    }

    @Override
    public void start() {
        arm();
    }

    private void arm() {
        if (!running) {
            idle = true;
            return;
        }
        armed.set(0);
        unseen.set(watchers.size());
        watchers.forEach(this::register);
    }

    private void register(LoadClient watcher) {
        watcher.getDataWatch(nodePath, this::seen, rc -> {
            if (rc != 0) {
                recorder.error(rc);
                if (running) {
                    register(watcher);
                } else {
                    idle = true;
                }
            } else if (armed.incrementAndGet() == watchers.size()) {
                fire();
            }
        });
    }

    private void fire() {
        firedAtNs = System.nanoTime();
        writer.setData(nodePath, value, rc -> {
            if (rc != 0) {
                recorder.error(rc);
                if (running) {
                    fire(); // the watches are still set: try the change again
                } else {
                    idle = true;
                }
            }
        });
    }

    private void seen() {
        if (unseen.decrementAndGet() == 0) {
            recorder.success(firedAtNs);
            arm();
        }
    }

    @Override
    public void stopAndDrain(long timeoutMs) throws InterruptedException {
        running = false;
        long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (!idle && System.nanoTime() < deadlineNs) {
            Thread.sleep(5);
        }
    }
}
