package dev.warden.server.peer;

/**
 * Limits and timing of the peer transport.
 *
 * @param maxFrameBytes      largest message accepted or sent; a SNAP of the whole tree must fit. Only
 *                           a connection whose hello was accepted may send frames this large; before
 *                           that, a hello is the only frame taken
 * @param maxQueuedMessages  per destination port, messages waiting for the socket
 * @param maxQueuedBytes     per destination port, bytes waiting; a message is refused only once the queue
 *                           already holds this many, so the bound is this plus one frame
 * @param reconnectMinMs     first delay before redialling; doubles per failure up to reconnectMaxMs
 * @param reconnectMaxMs     longest delay between dial attempts
 * @param helloTimeoutMs     how long an accepted connection may take to deliver its hello before it is
 *                           closed
 * @param silenceLimitMs     how long a member may send nothing on a port while frames keep going to it
 *                           there before both connections with it on that port are closed and redialled;
 *                           0 for no limit. A network that drops packets (a partition, a pulled cable) leaves
 *                           the TCP connections open, their retransmissions backing off for minutes; a
 *                           connection dialled afresh once the network heals carries frames at once
 */
public record PeerOptions(int maxFrameBytes, int maxQueuedMessages, long maxQueuedBytes, long reconnectMinMs,
                          long reconnectMaxMs, long helloTimeoutMs, long silenceLimitMs) {
    static final long DEFAULT_HELLO_TIMEOUT_MS = 10_000;
    static final long MIN_QUEUED_BYTES = 16L << 20;
    static final long MAX_QUEUED_BYTES = 256L << 20;

    public PeerOptions {
        if (maxFrameBytes < PeerWire.HELLO_BYTES || maxFrameBytes > Integer.MAX_VALUE - PeerWire.LENGTH_BYTES
                || maxQueuedMessages <= 0 || maxQueuedBytes <= 0 || reconnectMinMs <= 0
                || reconnectMaxMs < reconnectMinMs || helloTimeoutMs <= 0 || silenceLimitMs < 0) {
            throw new IllegalArgumentException("invalid peer transport options " + this);
        }
    }

    /** Options without a silence limit. */
    public PeerOptions(int maxFrameBytes, int maxQueuedMessages, long maxQueuedBytes, long reconnectMinMs,
                       long reconnectMaxMs, long helloTimeoutMs) {
        this(maxFrameBytes, maxQueuedMessages, maxQueuedBytes, reconnectMinMs, reconnectMaxMs, helloTimeoutMs, 0);
    }

    /** The defaults for this JVM's heap: see {@link #forHeap}. */
    public static PeerOptions defaults() {
        return forHeap(Runtime.getRuntime().maxMemory());
    }

    /**
     * 1 GiB frames, 100,000 messages queued per port, redial after 100 ms up to 2 s, and an
     * eighth of the heap queued per port, between 16 and 256 MiB. The queue to a member that
     * stopped reading (paused, or partitioned with its socket open) fills at the write rate,
     * tens of MB/s under load: bounded by the heap, it overflows and that member is dropped
     * and later resynced, instead of the leader running out of memory. A hello is awaited
     * 10 s, and no silence limit is set; a member sets both from its own configuration with
     * {@link #withHelloTimeoutMs} and {@link #withSilenceLimitMs}.
     */
    public static PeerOptions forHeap(long maxHeapBytes) {
        long queuedBytes = Math.max(MIN_QUEUED_BYTES, Math.min(MAX_QUEUED_BYTES, maxHeapBytes / 8));
        return new PeerOptions(1 << 30, 100_000, queuedBytes, 100, 2_000, DEFAULT_HELLO_TIMEOUT_MS);
    }

    /** These options with another hello timeout. */
    public PeerOptions withHelloTimeoutMs(long timeoutMs) {
        return new PeerOptions(maxFrameBytes, maxQueuedMessages, maxQueuedBytes, reconnectMinMs, reconnectMaxMs,
                timeoutMs, silenceLimitMs);
    }

    /** These options with another silence limit. */
    public PeerOptions withSilenceLimitMs(long limitMs) {
        return new PeerOptions(maxFrameBytes, maxQueuedMessages, maxQueuedBytes, reconnectMinMs, reconnectMaxMs,
                helloTimeoutMs, limitMs);
    }
}
