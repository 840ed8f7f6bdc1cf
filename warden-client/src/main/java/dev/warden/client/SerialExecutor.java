package dev.warden.client;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs tasks one at a time, in submission order, on any executor (even a multi-threaded
 * pool). This is what makes completions and watch events of one client FIFO. The delegate
 * is only asked to run a drain when the queue goes from idle to busy, so a burst of replies
 * costs one hand-off.
 */
final class SerialExecutor implements Executor {
    private static final Logger LOG = LoggerFactory.getLogger(SerialExecutor.class);

    private final Executor delegate;
    private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean draining = new AtomicBoolean();

    SerialExecutor(Executor delegate) {
        this.delegate = delegate;
    }

    @Override
    public void execute(Runnable task) {
        tasks.add(task);
        if (draining.compareAndSet(false, true)) {
            try {
                delegate.execute(this::drain);
            } catch (RejectedExecutionException e) {
                // The client's own executor is shut down after the final state change; late
                // failures (a request racing with close) still have to reach their futures.
                drain();
            }
        }
    }

    private void drain() {
        while (true) {
            Runnable task;
            while ((task = tasks.poll()) != null) {
                try {
                    task.run();
                } catch (RuntimeException | Error e) {
                    // A throwing user callback must not stall every later completion.
                    LOG.warn("completion or watcher callback threw", e);
                }
            }
            draining.set(false);
            // A task added after the poll above but before the flag reset would be stranded.
            if (tasks.isEmpty() || !draining.compareAndSet(false, true)) {
                return;
            }
        }
    }
}
