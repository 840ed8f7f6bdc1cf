package dev.warden.server.quorum;

import dev.warden.consensus.Entry;
import dev.warden.consensus.Outbound;
import dev.warden.consensus.Ready;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * Entries with the {@link LogWriter}, and what must wait until they are durable: messages that
 * promise them (acknowledgements) or queue behind such messages to the same peer, and the Ready
 * batches whose commits, sync completions and {@code advance} come after them. Only the driver
 * thread touches the lists; the writer only marks the batch durable or failed.
 */
final class LogBatch {
    private final List<Entry> entries;
    final List<Outbound> sendsWhenDurable = new ArrayList<>();
    final List<Ready> settleWhenDurable = new ArrayList<>();
    private final CountDownLatch done = new CountDownLatch(1);
    private volatile Throwable failure;

    LogBatch(List<Entry> entries) {
        this.entries = entries;
    }

    List<Entry> entries() {
        return entries;
    }

    void durable() {
        done.countDown();
    }

    void failed(Throwable cause) {
        failure = cause;
        done.countDown();
    }

    boolean isDone() {
        return done.getCount() == 0;
    }

    /** Null when durable; meaningful only once {@link #isDone()}. */
    Throwable failure() {
        return failure;
    }

    void awaitDone() throws InterruptedException {
        done.await();
    }
}
