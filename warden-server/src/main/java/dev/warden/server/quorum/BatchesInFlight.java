package dev.warden.server.quorum;

import dev.warden.consensus.Entry;
import dev.warden.consensus.Outbound;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The driver's {@link LogBatch}es with the log writer, oldest first, and the messages held in
 * them until their entries are durable. A message to a peer that already has one held is held
 * too, behind it, so each peer gets its messages in the order the core queued them. Batches
 * become durable in the order they were handed out. Driver thread only.
 */
final class BatchesInFlight {
    private final ArrayDeque<LogBatch> batches = new ArrayDeque<>();
    /**
     * Messages held per peer, as counts, so a send needs no scan of the batches (and none at all
     * while nothing is held).
     */
    private final Map<Long, Integer> heldByPeer = new HashMap<>();

    boolean isEmpty() {
        return batches.isEmpty();
    }

    int size() {
        return batches.size();
    }

    /** A new newest batch for these entries, to hand to the log writer. */
    LogBatch add(List<Entry> entries) {
        LogBatch batch = new LogBatch(entries);
        batches.add(batch);
        return batch;
    }

    /** The batch handed out last; what is held now waits for it. */
    LogBatch newest() {
        return batches.peekLast();
    }

    /** Holds the message until the newest batch is durable. */
    void hold(Outbound message) {
        batches.peekLast().sendsWhenDurable.add(message);
        heldByPeer.merge(message.to(), 1, Integer::sum);
    }

    /** Holds the messages whose peer already has one held; returns the others, to send now. */
    List<Outbound> sendableNow(List<Outbound> messages) {
        if (heldByPeer.isEmpty() || messages.isEmpty()) {
            return messages;
        }
        List<Outbound> now = new ArrayList<>(messages.size());
        for (Outbound message : messages) {
            if (heldByPeer.containsKey(message.to())) {
                hold(message);
            } else {
                now.add(message);
            }
        }
        return now;
    }

    /**
     * The oldest batch once it is durable, removed, with its held messages released for the
     * caller to send; null while it is still being written (or when there is none).
     *
     * @throws IOException if its write failed; the writer fails every later batch too
     */
    LogBatch pollDurable() throws IOException {
        LogBatch oldest = batches.peekFirst();
        if (oldest == null || !oldest.isDone()) {
            return null;
        }
        batches.pollFirst();
        Throwable failure = oldest.failure();
        if (failure instanceof IOException io) {
            throw io;
        } else if (failure != null) {
            throw new IOException("the log write failed: " + failure, failure);
        }
        for (Outbound message : oldest.sendsWhenDurable) {
            heldByPeer.compute(message.to(), (peer, count) -> count == 1 ? null : count - 1);
        }
        return oldest;
    }
}
