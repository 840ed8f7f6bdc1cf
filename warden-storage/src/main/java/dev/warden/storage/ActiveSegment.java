package dev.warden.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;

/** The segment the log appends to: owns its write channel and its preallocated space. */
final class ActiveSegment {

    private static final Set<StandardOpenOption> CREATE_OPTIONS = Set.of(
            StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);
    private static final Set<StandardOpenOption> REOPEN_OPTIONS = Set.of(
            StandardOpenOption.READ, StandardOpenOption.WRITE);

    private final Segment segment;
    private final TxnLogOptions options;
    private FileChannel channel;
    private long capacityBytes;

    private ActiveSegment(Segment segment, TxnLogOptions options, FileChannel channel) throws IOException {
        this.segment = segment;
        this.options = options;
        this.channel = channel;
        this.capacityBytes = channel.size();
    }

    /** Creates the file with its header; the header reaches the disk with the first flush. */
    static ActiveSegment create(Path dir, long firstZxid, TxnLogOptions options) throws IOException {
        Path path = dir.resolve(SegmentFormat.fileName(firstZxid));
        FileChannel channel = options.channels().open(path, CREATE_OPTIONS);
        try {
            writeFully(channel, SegmentFormat.header(firstZxid), 0);
            return new ActiveSegment(new Segment(path, firstZxid, 0, SegmentFormat.HEADER_BYTES), options, channel);
        } catch (IOException | RuntimeException e) {
            closeQuietly(channel, e);
            Files.deleteIfExists(path);
            throw e;
        }
    }

    static ActiveSegment reopen(Segment segment, TxnLogOptions options) throws IOException {
        return new ActiveSegment(segment, options, options.channels().open(segment.path, REOPEN_OPTIONS));
    }

    Segment segment() {
        return segment;
    }

    /** Writes a batch after the durable data; it becomes durable only with {@link #commit}. */
    long write(ByteBuffer batch) throws IOException {
        long end = segment.dataEndBytes + batch.remaining();
        preallocate(end);
        writeFully(channel, batch, segment.dataEndBytes);
        return end;
    }

    void force() throws IOException {
        channel.force(false);
    }

    void commit(long dataEndBytes, long lastZxid) {
        segment.dataEndBytes = dataEndBytes;
        segment.lastZxid = lastZxid;
    }

    /** Cuts the file at {@code sizeBytes}; this frees space, so it works on a full disk. */
    void truncate(long sizeBytes) throws IOException {
        if (!channel.isOpen()) {
            // A failed or interrupted write may have closed the channel under us.
            channel = options.channels().open(segment.path, REOPEN_OPTIONS);
        }
        channel.truncate(sizeBytes);
        if (options.forceSync()) {
            channel.force(false);
        }
        capacityBytes = channel.size();
    }

    /** Gives back the unused preallocated space and closes the channel. */
    void retire() throws IOException {
        try {
            truncate(segment.dataEndBytes);
        } finally {
            channel.close();
        }
    }

    void close() throws IOException {
        channel.close();
    }

    private void preallocate(long neededBytes) throws IOException {
        long step = options.preallocateBytes();
        if (neededBytes <= capacityBytes || step == 0) {
            return;
        }
        // Whole steps of the file size, so the file only ever has a few distinct lengths.
        long newCapacity = (neededBytes + step - 1) / step * step;
        // One byte at the new end sets the length; the file stays sparse until the data lands.
        writeFully(channel, ByteBuffer.allocate(1), newCapacity - 1);
        capacityBytes = newCapacity;
    }

    private static void writeFully(FileChannel channel, ByteBuffer source, long position) throws IOException {
        long at = position;
        while (source.hasRemaining()) {
            at += channel.write(source, at);
        }
    }

    static void closeQuietly(AutoCloseable closeable, Throwable failure) {
        try {
            closeable.close();
        } catch (Exception e) {
            failure.addSuppressed(e);
        }
    }
}
