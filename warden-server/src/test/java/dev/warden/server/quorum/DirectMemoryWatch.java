package dev.warden.server.quorum;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetricProvider;

/**
 * The most direct memory Netty's default allocator (the one the peer ports read into) held while
 * it was watched, sampled every few milliseconds on a thread of its own. Pooled memory is held
 * in whole chunks, so the figure moves in steps of megabytes: good for telling "a few buffers"
 * from "the frame a stranger announced", not for counting bytes.
 */
public final class DirectMemoryWatch implements AutoCloseable {
    private static final long SAMPLE_INTERVAL_MS = 2;

    private final long baselineBytes;
    private final Thread sampler;
    private volatile boolean stopped;
    private volatile long maxBytes;

    private DirectMemoryWatch() {
        baselineBytes = usedDirectBytes();
        maxBytes = baselineBytes;
        sampler = new Thread(() -> {
            while (!stopped) {
                maxBytes = Math.max(maxBytes, usedDirectBytes());
                try {
                    Thread.sleep(SAMPLE_INTERVAL_MS);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "direct-memory-watch");
        sampler.setDaemon(true);
        sampler.start();
    }

    public static DirectMemoryWatch start() {
        return new DirectMemoryWatch();
    }

    public static long usedDirectBytes() {
        if (ByteBufAllocator.DEFAULT instanceof ByteBufAllocatorMetricProvider provider) {
            return provider.metric().usedDirectMemory();
        }
        throw new IllegalStateException("Netty's default allocator " + ByteBufAllocator.DEFAULT
                + " reports no metrics");
    }

    public long baselineBytes() {
        return baselineBytes;
    }

    /** The largest amount seen above the amount held when the watch started. */
    public long maxGrowthBytes() {
        return Math.max(0, Math.max(maxBytes, usedDirectBytes()) - baselineBytes);
    }

    @Override
    public void close() throws InterruptedException {
        stopped = true;
        sampler.join();
    }
}
