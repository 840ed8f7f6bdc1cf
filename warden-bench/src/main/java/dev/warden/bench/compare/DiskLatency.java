package dev.warden.bench.compare;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * How long this machine's disk takes to make one small write durable, measured in the work
 * directory the members log to. One write in flight cannot be acknowledged sooner than this by
 * any server that syncs its log before it answers, so the report sets latency targets against it.
 *
 * @param p50Us   median of the samples, microseconds
 * @param p99Us   99th percentile of the samples, microseconds
 * @param samples how many writes were timed
 */
public record DiskLatency(long p50Us, long p99Us, int samples) {
    /** The size of a 1 KiB setData's log record, give or take its header. */
    static final int WRITE_BYTES = 1024;
    /** Writes go round this region of a file filled beforehand, as a preallocated log's do. */
    private static final int REGION_BYTES = 1 << 20;

    public DiskLatency {
        if (samples < 1 || p50Us < 0 || p99Us < p50Us) {
            throw new IllegalArgumentException("not a latency: p50 " + p50Us + ", p99 " + p99Us + ", " + samples);
        }
    }

    /**
     * Times {@code samples} writes of 1 KiB, each followed by a data sync (fdatasync on Linux), to
     * a scratch file in {@code dir}, and deletes the file.
     */
    public static DiskLatency measure(Path dir, int samples) throws IOException {
        if (samples < 1) {
            throw new IllegalArgumentException("samples must be at least 1, not " + samples);
        }
        Path file = Files.createTempFile(dir, "fsync-probe", ".tmp");
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ByteBuffer zeros = ByteBuffer.allocate(REGION_BYTES);
            while (zeros.hasRemaining()) {
                channel.write(zeros, zeros.position());
            }
            channel.force(true);
            ByteBuffer record = ByteBuffer.allocateDirect(WRITE_BYTES);
            long[] micros = new long[samples];
            long position = 0;
            for (int i = 0; i < samples; i++) {
                record.clear();
                long startNs = System.nanoTime();
                while (record.hasRemaining()) {
                    channel.write(record, position + record.position());
                }
                channel.force(false);
                micros[i] = (System.nanoTime() - startNs) / 1000;
                position = (position + WRITE_BYTES) % REGION_BYTES;
            }
            Arrays.sort(micros);
            return new DiskLatency(micros[(samples - 1) / 2], micros[(int) Math.ceil(samples * 0.99) - 1], samples);
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
