package dev.warden.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The segment the log appends to: owns its write channel and its preallocated space. With
 * {@link TxnLogOptions#directIo()} the channel bypasses the page cache ({@link DirectWriter});
 * where the file system refuses direct I/O it writes through the page cache instead.
 */
final class ActiveSegment {
    private static final Logger LOG = LoggerFactory.getLogger(ActiveSegment.class);

    /**
     * Direct I/O only: how far ahead of the data zeros are written after a light batch. An append
     * into a preallocated hole makes the file system allocate the block, so the fsync that follows
     * also commits that allocation to its journal; an append over blocks that already hold written
     * zeros changes no block map, and its fdatasync only flushes the data. On the development VM
     * (ext4) a 4 KiB direct write + fdatasync took 81 µs into a hole and 41–44 µs over zeros,
     * 160 against 70 µs with three writers at once.
     */
    static final int ZERO_AHEAD_BYTES = 256 * 1024;
    /**
     * Batches up to this size are followed by zeros ahead. A heavier batch already shares its
     * journal commit among many writes, and zeros written after every batch would double the bytes
     * the log sends to the disk under load, where bandwidth matters more than one fsync's latency.
     */
    static final int LIGHT_BATCH_BYTES = 64 * 1024;

    private static final Set<StandardOpenOption> CREATE_OPTIONS = Set.of(
            StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);
    private static final Set<StandardOpenOption> REOPEN_OPTIONS = Set.of(
            StandardOpenOption.READ, StandardOpenOption.WRITE);

    private final Segment segment;
    private final TxnLogOptions options;
    /** Null when the channel writes through the page cache. */
    private final DirectWriter direct;
    private FileChannel channel;
    private long capacityBytes;
    /** Direct I/O only: the file holds written zeros (or data) up to here. */
    private long zeroedToBytes;
    /** Set when writing zeros ahead failed; the segment then appends into holes as without it. */
    private boolean zeroAheadOff;
    /** Set once {@link #retire()} has started. */
    private boolean retired;

    private ActiveSegment(Segment segment, TxnLogOptions options, Opened opened) throws IOException {
        this.segment = segment;
        this.options = options;
        this.channel = opened.channel();
        this.direct = opened.direct();
        this.capacityBytes = channel.size();
    }

    /** Creates the file with its header; the header reaches the disk with the first flush. */
    static ActiveSegment create(Path dir, long firstZxid, long previousZxid, TxnLogOptions options)
            throws IOException {
        Path path = dir.resolve(SegmentFormat.fileName(firstZxid));
        Opened opened = open(path, CREATE_OPTIONS, options);
        try {
            ActiveSegment created = new ActiveSegment(new Segment(path, firstZxid, previousZxid, 0,
                    SegmentFormat.HEADER_BYTES), options, opened);
            created.writeAt(SegmentFormat.header(firstZxid, previousZxid), 0);
            return created;
        } catch (IOException | RuntimeException e) {
            closeQuietly(opened.channel(), e);
            Files.deleteIfExists(path);
            throw e;
        }
    }

    static ActiveSegment reopen(Segment segment, TxnLogOptions options) throws IOException {
        return new ActiveSegment(segment, options, open(segment.path, REOPEN_OPTIONS, options));
    }

    /** Whether appends bypass the page cache. */
    boolean isDirect() {
        return direct != null;
    }

    private record Opened(FileChannel channel, DirectWriter direct) {
    }

    private static Opened open(Path path, Set<StandardOpenOption> base, TxnLogOptions options) throws IOException {
        if (!options.directIo()) {
            return new Opened(options.channels().open(path, base), null);
        }
        int blockBytes = DirectIo.blockBytes(path.getParent());
        if (blockBytes > 0) {
            Set<OpenOption> withDirect = new HashSet<>(base);
            withDirect.add(DirectIo.OPTION);
            boolean existed = Files.exists(path);
            try {
                return new Opened(options.channels().open(path, withDirect), new DirectWriter(blockBytes));
            } catch (FileAlreadyExistsException | NoSuchFileException | AccessDeniedException notAboutDirectIo) {
                throw notAboutDirectIo; // would fail the same without O_DIRECT
            } catch (IOException | UnsupportedOperationException refused) {
                if (!existed && base.contains(StandardOpenOption.CREATE_NEW)) {
                    // open(2) may create the file before it refuses O_DIRECT; try again without.
                    Files.deleteIfExists(path);
                }
                DirectIo.refused(path.getParent(), refused);
            }
        }
        return new Opened(options.channels().open(path, base), null);
    }

    Segment segment() {
        return segment;
    }

    /** Writes a batch after the durable data; it becomes durable only with {@link #commit}. */
    long write(ByteBuffer batch) throws IOException {
        long end = segment.dataEndBytes + batch.remaining();
        preallocate(end);
        writeAt(batch, segment.dataEndBytes);
        return end;
    }

    private void writeAt(ByteBuffer data, long atBytes) throws IOException {
        if (direct != null) {
            direct.write(channel, data, atBytes);
        } else {
            writeFully(channel, data, atBytes);
        }
    }

    /**
     * After a light batch is durable, makes sure written zeros lie ahead of the data, within the
     * preallocated space (so the file's length does not change) and never in the block that holds
     * the data's end. The zeros become durable with the next flush. Failing here loses nothing:
     * the batch is already durable, so the error is logged and the segment goes on without zeros.
     */
    void zeroAheadAfter(long batchBytes) {
        if (direct == null || zeroAheadOff || batchBytes > LIGHT_BATCH_BYTES) {
            return;
        }
        long dataEndBytes = segment.dataEndBytes;
        if (zeroedToBytes - dataEndBytes >= ZERO_AHEAD_BYTES / 2) {
            return;
        }
        long fromBytes = Math.max(zeroedToBytes, direct.roundUpToBlock(dataEndBytes));
        // Whole blocks inside the file's length: a segment reopened after buffered writes may end mid-block.
        long toBytes = Math.min(fromBytes + ZERO_AHEAD_BYTES, capacityBytes) & -direct.blockBytes();
        if (toBytes <= fromBytes) {
            return; // at the end of the preallocated space; the next preallocation makes room
        }
        try {
            direct.writeZeros(channel, fromBytes, toBytes);
            zeroedToBytes = toBytes;
        } catch (IOException e) {
            zeroAheadOff = true;
            LOG.warn("Writing zeros ahead of the data in {} failed; its appends go on into preallocated space"
                    + " without them: {}", segment.path, e.toString());
        }
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
        zeroedToBytes = Math.min(zeroedToBytes, sizeBytes);
        if (direct != null) {
            direct.forget();
        }
        if (options.forceSync()) {
            channel.force(false);
        }
        capacityBytes = channel.size();
    }

    /**
     * Gives back the unused preallocated space and closes the channel. Runs once: a later call,
     * or one made while another thread is retiring this segment, returns when the first is done.
     * Nothing else may use the segment once it is being retired.
     */
    synchronized void retire() throws IOException {
        if (retired) {
            return;
        }
        retired = true;
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
        if (direct != null) {
            // Direct writes take whole blocks, so the step is rounded up to one; the last block,
            // written as zeros, sets the length. An append that reaches past it extends the file itself.
            newCapacity = direct.roundUpToBlock(newCapacity);
            if (newCapacity - direct.blockBytes() >= direct.roundUpToBlock(neededBytes)) {
                direct.extendTo(channel, newCapacity);
            }
        } else {
            // One byte at the new end sets the length; the file stays sparse until the data lands.
            writeFully(channel, ByteBuffer.allocate(1), newCapacity - 1);
        }
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
