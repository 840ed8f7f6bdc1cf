package dev.warden.server.quorum;

import dev.warden.consensus.Entry;
import dev.warden.consensus.Outbound;
import dev.warden.consensus.Ready;
import java.util.ArrayList;
import java.util.List;

/**
 * Entries with the log writer ({@link MemberLoop.LogDisk}), and what must wait until they are
 * durable: messages that promise them (acknowledgements) or queue behind such messages to the
 * same peer, and the Ready batches whose commits, sync completions and {@code advance} come
 * after them. Only the member loop touches the lists; the writer only marks the batch durable or
 * failed.
 */
public final class LogBatch {
    private final List<Entry> entries;
    final List<Outbound> sendsWhenDurable = new ArrayList<>();
    final List<Ready> settleWhenDurable = new ArrayList<>();
    private volatile boolean done;
    private volatile Throwable failure;

    LogBatch(List<Entry> entries) {
        this.entries = entries;
    }

    public List<Entry> entries() {
        return entries;
    }

    /** The log writer: every entry of this batch is durable. */
    public void durable() {
        done = true;
    }

    /** The log writer: this batch could not be written; nothing in it counts as durable. */
    public void failed(Throwable cause) {
        failure = cause;
        done = true;
    }

    boolean isDone() {
        return done;
    }

    /** Null when durable; meaningful only once {@link #isDone()}. */
    Throwable failure() {
        return failure;
    }
}
