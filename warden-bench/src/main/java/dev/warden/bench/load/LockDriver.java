package dev.warden.bench.load;

import dev.warden.protocol.ErrorCode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The lock recipe, as clients use it: create an ephemeral sequential node under the lock, hold
 * the lock when it is the lowest, otherwise watch only the node just before it (no herd), and
 * release by deleting the node. Each contender acquires, releases and tries again at once, so
 * the figure is acquisitions per second under full contention.
 */
final class LockDriver implements LoadDriver {
    private static final byte[] NO_DATA = new byte[0];

    private final String lockPath;
    private final List<Contender> contenders = new ArrayList<>();
    private final LoadRecorder recorder;
    private final AtomicInteger active = new AtomicInteger();
    private volatile boolean running = true;

    LockDriver(LoadSpec spec, List<LoadClient> clients, LoadRecorder recorder) {
        this.lockPath = spec.workloadRoot();
        this.recorder = recorder;
        for (LoadClient client : clients) {
            contenders.add(new Contender(client));
        }
    }

    @Override
    public void start() {
        active.set(contenders.size());
        contenders.forEach(Contender::attempt);
    }

    /** One session's acquire/release loop; its callbacks run one at a time on that client's thread. */
    private final class Contender {
        private final LoadClient client;
        private long attemptStartNs;
        private String ownPath;

        Contender(LoadClient client) {
            this.client = client;
        }

        void attempt() {
            if (!running) {
                active.decrementAndGet();
                return;
            }
            attemptStartNs = System.nanoTime();
            client.create(lockPath + "/lock-", NO_DATA, true, (rc, created) -> {
                if (rc != 0) {
                    recorder.error(rc);
                    attempt();
                    return;
                }
                ownPath = created;
                check();
            });
        }

        void check() {
            client.getChildren(lockPath, (rc, names) -> {
                if (rc != 0) {
                    recorder.error(rc);
                    release(false);
                    return;
                }
                List<String> sorted = new ArrayList<>(names);
                Collections.sort(sorted); // equal prefixes and zero-padded counters: name order is queue order
                int position = sorted.indexOf(ownPath.substring(ownPath.lastIndexOf('/') + 1));
                if (position < 0) {
                    recorder.error("LOCK_NODE_VANISHED");
                    attempt();
                } else if (position == 0) {
                    recorder.success(attemptStartNs);
                    release(true);
                } else {
                    watchPredecessor(lockPath + "/" + sorted.get(position - 1));
                }
            });
        }

        private void watchPredecessor(String predecessor) {
            client.existsWatch(predecessor, this::check, rc -> {
                if (rc == ErrorCode.NO_NODE.code()) {
                    check(); // it went between our listing and the watch: look again
                } else if (rc != 0) {
                    recorder.error(rc);
                    release(false);
                }
            });
        }

        private void release(boolean held) {
            client.delete(ownPath, rc -> {
                if (rc != 0 && held) {
                    recorder.error(rc);
                }
                ownPath = null;
                attempt();
            });
        }
    }

    @Override
    public void stopAndDrain(long timeoutMs) throws InterruptedException {
        running = false;
        long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (active.get() > 0 && System.nanoTime() < deadlineNs) {
            Thread.sleep(5);
        }
    }
}
