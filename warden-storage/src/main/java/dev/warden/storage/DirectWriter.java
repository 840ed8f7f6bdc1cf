package dev.warden.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Appends to a segment opened for direct I/O ({@code O_DIRECT}), which moves data from memory to
 * the disk without a copy into the page cache, but only in whole blocks: file offset, length and
 * memory address must all be multiples of the block size.
 *
 * <p>An append rarely ends on a block boundary, so this keeps the bytes of the last, partly
 * filled block in memory; the next append rewrites that block with the same leading bytes, then
 * its own, then zeros to the end of the block. Zeros after the last record are how a segment
 * normally ends, so the padding needs no marker. A block rewritten with its old leading bytes
 * holds them whether the write completed or not, so a torn rewrite can only damage records that
 * were never acknowledged.
 *
 * <p>Not thread-safe; the owning {@link ActiveSegment} is used under the log's lock.
 */
final class DirectWriter {
    /** Bytes moved per write system call at most; larger batches take several. */
    private static final int CHUNK_BYTES = 1024 * 1024;

    private final int blockBytes;
    /** Aligned to {@link #blockBytes}; holds the partial last block between appends. */
    private final ByteBuffer chunk;
    /** Zeros, aligned, for {@link #writeZeros}: {@link #zerosBytes} of them per write. */
    private final ByteBuffer zeros;
    private final int zerosBytes;
    /** The file offset the held partial block ends at, or -1 when it must be read from the file. */
    private long heldEndBytes = -1;

    /** @param blockBytes a power of two the file system accepts for direct I/O */
    DirectWriter(int blockBytes) {
        if (blockBytes < 512 || Integer.bitCount(blockBytes) != 1 || blockBytes > CHUNK_BYTES) {
            throw new IllegalArgumentException("unusable block size for direct I/O: " + blockBytes);
        }
        this.blockBytes = blockBytes;
        this.chunk = ByteBuffer.allocateDirect(CHUNK_BYTES + blockBytes).alignedSlice(blockBytes);
        this.zerosBytes = (int) roundUpToBlock(ActiveSegment.ZERO_AHEAD_BYTES);
        this.zeros = ByteBuffer.allocateDirect(zerosBytes + blockBytes).alignedSlice(blockBytes);
    }

    int blockBytes() {
        return blockBytes;
    }

    long roundUpToBlock(long bytes) {
        return (bytes + blockBytes - 1) & -blockBytes;
    }

    /**
     * Writes {@code data} at {@code atBytes}, the end of the data already in the file, and pads
     * the last block with zeros. The file then holds the data, durably only after a force.
     */
    void write(FileChannel channel, ByteBuffer data, long atBytes) throws IOException {
        if (heldEndBytes != atBytes) {
            loadPartialBlock(channel, atBytes);
        }
        heldEndBytes = -1; // unknown until this write is complete
        long endBytes = atBytes + data.remaining();
        long chunkStartBytes = atBytes & -blockBytes;
        chunk.clear().position((int) (atBytes - chunkStartBytes));
        while (data.hasRemaining()) {
            int take = Math.min(chunk.remaining(), data.remaining());
            int oldLimit = data.limit();
            data.limit(data.position() + take);
            chunk.put(data);
            data.limit(oldLimit);
            if (!chunk.hasRemaining()) {
                chunk.flip();
                writeFully(channel, chunk, chunkStartBytes);
                chunkStartBytes += chunk.capacity();
                chunk.clear();
            }
        }
        int usedBytes = chunk.position();
        if (usedBytes > 0) {
            int paddedBytes = (int) roundUpToBlock(usedBytes);
            chunk.put(usedBytes, zeros, 0, paddedBytes - usedBytes);
            chunk.position(0).limit(paddedBytes);
            writeFully(channel, chunk, chunkStartBytes);
            int lastBlockStart = usedBytes & -blockBytes;
            int partialBytes = usedBytes - lastBlockStart;
            if (partialBytes > 0 && lastBlockStart > 0) {
                chunk.clear();
                chunk.put(0, chunk, lastBlockStart, partialBytes);
            }
        }
        heldEndBytes = endBytes;
    }

    /** Extends the file to {@code sizeBytes} (a block multiple) by writing its last block as zeros. */
    void extendTo(FileChannel channel, long sizeBytes) throws IOException {
        writeZeros(channel, sizeBytes - blockBytes, sizeBytes);
    }

    /**
     * Writes zeros over {@code [fromBytes, toBytes)}, both block multiples, in writes of at most
     * {@link ActiveSegment#ZERO_AHEAD_BYTES} (rounded up to a block); the caller keeps them clear of
     * the block that holds the data's end.
     */
    void writeZeros(FileChannel channel, long fromBytes, long toBytes) throws IOException {
        if (fromBytes % blockBytes != 0 || toBytes % blockBytes != 0 || toBytes < fromBytes) {
            throw new IllegalArgumentException("zeros must cover whole blocks: " + fromBytes + " to " + toBytes);
        }
        for (long at = fromBytes; at < toBytes; at += zerosBytes) {
            zeros.clear().limit((int) Math.min(zerosBytes, toBytes - at));
            writeFully(channel, zeros, at);
        }
    }

    /** The file was cut or replaced under this writer: read the partial block again before appending. */
    void forget() {
        heldEndBytes = -1;
    }

    private void loadPartialBlock(FileChannel channel, long endBytes) throws IOException {
        int partialBytes = (int) (endBytes & (blockBytes - 1));
        if (partialBytes == 0) {
            return;
        }
        long blockStartBytes = endBytes - partialBytes;
        chunk.clear().limit(blockBytes);
        while (chunk.position() < partialBytes) {
            // A direct read also takes whole blocks; at the end of the file it returns fewer bytes.
            int read = channel.read(chunk, blockStartBytes + chunk.position());
            if (read < 0) {
                throw new IOException("segment ends at " + (blockStartBytes + chunk.position())
                        + " bytes, before its data end at " + endBytes);
            }
            if (chunk.position() % blockBytes != 0 && chunk.position() < partialBytes) {
                throw new IOException("short direct read of the block at " + blockStartBytes);
            }
        }
    }

    private static void writeFully(FileChannel channel, ByteBuffer source, long position) throws IOException {
        long at = position;
        while (source.hasRemaining()) {
            at += channel.write(source, at);
        }
    }
}
