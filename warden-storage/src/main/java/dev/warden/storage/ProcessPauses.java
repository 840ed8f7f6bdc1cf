package dev.warden.storage;

import java.util.ArrayDeque;
import java.util.Deque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Notices when the whole process stops running for a while (a SIGSTOP, a long garbage
 * collection, a stalled virtual machine or host), as ZooKeeper's JVM pause monitor does: a
 * daemon thread sleeps {@value #TICK_MS} ms at a time, and a wake-up much later than asked means
 * nothing in the process ran in between. Each pause is logged once, and kept for a while so a
 * slow fsync that happened during one is not blamed on the disk.
 */
public final class ProcessPauses {
    private static final Logger LOG = LoggerFactory.getLogger(ProcessPauses.class);
    static final long TICK_MS = 100;
    /** A wake-up this much later than asked counts as a pause (kept, so an fsync is not blamed for it). */
    static final long PAUSE_THRESHOLD_MS = 500;
    /** ZooKeeper's JVM pause monitor logs pauses from 1 s at INFO and from 10 s at WARN; so does Warden. */
    static final long INFO_THRESHOLD_MS = 1_000;
    static final long WARN_THRESHOLD_MS = 10_000;
    private static final int KEPT = 64;

    /** One pause, in System.nanoTime() terms. */
    record Pause(long startNs, long endNs) {
        long millis() {
            return (endNs - startNs) / 1_000_000;
        }
    }

    private static final ProcessPauses INSTANCE = new ProcessPauses();
    private final Deque<Pause> recent = new ArrayDeque<>();
    private volatile boolean started;

    private ProcessPauses() {
    }

    /** The watcher, started on first use (the first log opened). */
    public static ProcessPauses get() {
        INSTANCE.startOnce();
        return INSTANCE;
    }

    private synchronized void startOnce() {
        if (started) {
            return;
        }
        started = true;
        Thread watcher = new Thread(this::watch, "warden-pause-watch");
        watcher.setDaemon(true);
        watcher.start();
    }

    private void watch() {
        long before = System.nanoTime();
        while (true) {
            try {
                Thread.sleep(TICK_MS);
            } catch (InterruptedException e) {
                return;
            }
            long now = System.nanoTime();
            long lateMs = (now - before) / 1_000_000 - TICK_MS;
            if (lateMs >= PAUSE_THRESHOLD_MS) {
                record(new Pause(before + TICK_MS * 1_000_000, now));
                log(lateMs);
            }
            before = now;
        }
    }

    private static void log(long pausedMs) {
        String message = "the whole process was paused for about {} ms (SIGSTOP, a long garbage collection, or a"
                + " stalled virtual machine or host): nothing ran, so clients and other members may have timed out";
        if (pausedMs >= WARN_THRESHOLD_MS) {
            LOG.warn(message, pausedMs);
        } else if (pausedMs >= INFO_THRESHOLD_MS) {
            LOG.info(message, pausedMs);
        } else {
            LOG.debug(message, pausedMs);
        }
    }

    synchronized void record(Pause pause) {
        if (recent.size() == KEPT) {
            recent.removeFirst();
        }
        recent.addLast(pause);
    }

    /** Milliseconds of the interval [startNs, endNs] the process spent paused, as far as noticed. */
    public synchronized long pausedMillisDuring(long startNs, long endNs) {
        long pausedNs = 0;
        for (Pause pause : recent) {
            long overlap = Math.min(endNs, pause.endNs()) - Math.max(startNs, pause.startNs());
            if (overlap > 0) {
                pausedNs += overlap;
            }
        }
        return pausedNs / 1_000_000;
    }
}
