package dev.warden.storage;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * Records appended since the last flush, already framed exactly as they go to disk, so a flush
 * is one write. The buffer is reused across flushes and only grows, which keeps appends free
 * of allocation once it has reached the size of a typical batch.
 */
final class BatchBuffer {

    private static final int INITIAL_CAPACITY_BYTES = 64 * 1024;

    private final CRC32C crc = new CRC32C();
    private final byte[] zxidBytes = new byte[SegmentFormat.ZXID_BYTES];
    private final ByteBuffer zxidView = ByteBuffer.wrap(zxidBytes);
    private ByteBuffer buffer = ByteBuffer.allocateDirect(INITIAL_CAPACITY_BYTES);
    private long firstZxid;
    private long lastZxid;
    private int records;

    void add(long zxid, byte[] payload) {
        long recordBytes = SegmentFormat.recordBytes(payload.length);
        ensureRoom(recordBytes);
        zxidView.putLong(0, zxid);
        crc.reset();
        crc.update(zxidBytes, 0, zxidBytes.length);
        crc.update(payload, 0, payload.length);
        buffer.putInt(SegmentFormat.ZXID_BYTES + payload.length)
                .putInt((int) crc.getValue())
                .putLong(zxid)
                .put(payload);
        if (firstZxid == 0) {
            firstZxid = zxid;
        }
        lastZxid = zxid;
        records++;
    }

    /** Records buffered. */
    int records() {
        return records;
    }

    boolean isEmpty() {
        return buffer.position() == 0;
    }

    int sizeBytes() {
        return buffer.position();
    }

    /** Zxid of the first buffered record; 0 when empty. */
    long firstZxid() {
        return firstZxid;
    }

    /** Zxid of the last buffered record; 0 when empty. */
    long lastZxid() {
        return lastZxid;
    }

    /** A read-only view of the framed records, positioned for a channel write. */
    ByteBuffer contents() {
        return buffer.asReadOnlyBuffer().flip();
    }

    void clear() {
        buffer.clear();
        firstZxid = 0;
        lastZxid = 0;
        records = 0;
    }

    /** Drops buffered records with zxid above {@code zxid}. */
    void truncateAfter(long zxid) {
        int position = 0;
        int kept = 0;
        long keptZxid = 0;
        while (position < buffer.position()) {
            int length = buffer.getInt(position);
            long recordZxid = buffer.getLong(position + 8);
            if (recordZxid > zxid) {
                break;
            }
            keptZxid = recordZxid;
            position += SegmentFormat.RECORD_HEADER_BYTES - SegmentFormat.ZXID_BYTES + length;
            kept++;
        }
        records = kept;
        buffer.position(position);
        lastZxid = keptZxid;
        if (keptZxid == 0) {
            firstZxid = 0;
        }
    }

    private void ensureRoom(long recordBytes) {
        if (buffer.remaining() >= recordBytes) {
            return;
        }
        long needed = buffer.position() + recordBytes;
        if (needed > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("more than 2 GiB appended without a flush");
        }
        int capacity = buffer.capacity();
        while (capacity < needed) {
            capacity = (int) Math.min(Integer.MAX_VALUE - 8, capacity * 2L);
        }
        ByteBuffer grown = ByteBuffer.allocateDirect(capacity);
        buffer.flip();
        grown.put(buffer);
        buffer = grown;
    }
}
