package dev.warden.client;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The request queues of one client. Callers add to a lock-free inbox; the I/O thread moves
 * requests to {@code waiting} and from there onto the wire ({@code pending}) while the window
 * of {@code maxOutstandingRequests} has room. Replies must match the head of {@code pending},
 * since the server answers in request order.
 */
final class Outbox {
    private final int maxOutstandingRequests;
    private final int maxQueuedRequests;
    private final Queue<Packet<?>> inbox = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    private final AtomicInteger queuedOrInFlight = new AtomicInteger();
    // Confined to the I/O thread.
    private final ArrayDeque<Packet<?>> waiting = new ArrayDeque<>();
    private final ArrayDeque<Packet<?>> pending = new ArrayDeque<>();
    private int nextXid = 1;

    Outbox(int maxOutstandingRequests, int maxQueuedRequests) {
        this.maxOutstandingRequests = maxOutstandingRequests;
        this.maxQueuedRequests = maxQueuedRequests;
    }

    /** Any thread: requests taken and not yet answered or failed (queued plus on the wire). */
    int queuedOrInFlight() {
        return queuedOrInFlight.get();
    }

    int maxQueuedRequests() {
        return maxQueuedRequests;
    }

    /** Any thread. False when the hard cap is reached (the request was not taken). */
    boolean offer(Packet<?> packet) {
        if (queuedOrInFlight.incrementAndGet() > maxQueuedRequests) {
            queuedOrInFlight.decrementAndGet();
            return false;
        }
        inbox.add(packet);
        return true;
    }

    /** Any thread. True when the caller must schedule {@link #takeInbox()} on the I/O thread. */
    boolean claimDrain() {
        return drainScheduled.compareAndSet(false, true);
    }

    /** Any thread: removes whatever is still in the inbox (used once the client is finished). */
    List<Packet<?>> pollInbox() {
        List<Packet<?>> taken = new ArrayList<>();
        Packet<?> packet;
        while ((packet = inbox.poll()) != null) {
            queuedOrInFlight.decrementAndGet();
            taken.add(packet);
        }
        return taken;
    }

    /** I/O thread: moves the inbox to the waiting queue, keeping submission order. */
    void takeInbox() {
        drainScheduled.set(false);
        Packet<?> packet;
        while ((packet = inbox.poll()) != null) {
            waiting.add(packet);
        }
    }

    /** I/O thread: queues a request created on the I/O thread itself (closeSession). */
    void addLast(Packet<?> packet) {
        queuedOrInFlight.incrementAndGet();
        waiting.add(packet);
    }

    /** I/O thread: stamps xids and hands frames to the writer while the window has room. */
    void sendReady(Consumer<byte[]> writer) {
        Packet<?> packet;
        while (pending.size() < maxOutstandingRequests && (packet = waiting.poll()) != null) {
            packet.assignXid(nextXid);
            nextXid = nextXid == Integer.MAX_VALUE ? 1 : nextXid + 1;
            pending.add(packet);
            writer.accept(packet.frame());
        }
    }

    /** I/O thread: the request a reply answers, or null if the xid is not the oldest on the wire. */
    Packet<?> matchReply(int xid) {
        Packet<?> head = pending.peek();
        if (head == null || head.xid() != xid) {
            return null;
        }
        pending.poll();
        queuedOrInFlight.decrementAndGet();
        return head;
    }

    int oldestPendingXid() {
        Packet<?> head = pending.peek();
        return head == null ? 0 : head.xid();
    }

    /**
     * I/O thread, after a disconnect: requests the policy lets retry go back to the front of
     * the waiting queue in their original order; the others are handed to {@code lost}.
     */
    void requeueAfterDisconnect(RetryPolicy policy, long nowNanos, Consumer<Packet<?>> lost) {
        ArrayDeque<Packet<?>> retried = new ArrayDeque<>();
        for (Packet<?> packet : pending) {
            long elapsedMs = TimeUnit.NANOSECONDS.toMillis(nowNanos - packet.submittedNanos);
            if (packet.idempotent && policy.allowRetry(packet.retries(), elapsedMs)) {
                packet.countRetry();
                retried.add(packet);
            } else {
                queuedOrInFlight.decrementAndGet();
                lost.accept(packet);
            }
        }
        pending.clear();
        while (!retried.isEmpty()) {
            waiting.addFirst(retried.pollLast());
        }
    }

    /** I/O thread: empties every queue, oldest first, for the final failure. */
    List<Packet<?>> drainAll() {
        List<Packet<?>> all = new ArrayList<>(pending);
        all.addAll(waiting);
        pending.clear();
        waiting.clear();
        queuedOrInFlight.addAndGet(-all.size());
        all.addAll(pollInbox());
        return all;
    }
}
