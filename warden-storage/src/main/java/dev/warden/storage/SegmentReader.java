package dev.warden.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * Decodes and verifies the records of one segment, in order, up to a byte limit. It never
 * decides whether a bad record is a torn tail or corruption; it only reports what it found.
 */
final class SegmentReader {

    enum Outcome {
        /** A whole, verified record; see {@link #zxid()} and {@link #payload()}. */
        RECORD,
        /** The limit was reached exactly at a record boundary. */
        END_OF_DATA,
        /** A zero length field: preallocated space, or a zeroed region. */
        ZERO_LENGTH,
        /** Anything else; see {@link #badReason()}. */
        BAD
    }

    private final ChannelInput input;
    private final long limitBytes;
    private final byte[] recordHeader = new byte[SegmentFormat.RECORD_HEADER_BYTES];
    private final ByteBuffer recordHeaderView = ByteBuffer.wrap(recordHeader);
    private final CRC32C crc = new CRC32C();
    private long position;
    private long recordStart;
    private long previousZxid;
    private long zxid;
    private byte[] payload;
    private String badReason;

    SegmentReader(ChannelInput input, long startPosition, long limitBytes, long previousZxid) {
        this.input = input;
        this.position = startPosition;
        this.limitBytes = limitBytes;
        this.previousZxid = previousZxid;
    }

    Outcome next() throws IOException {
        recordStart = position;
        payload = null;
        long remaining = limitBytes - position;
        if (remaining == 0) {
            return Outcome.END_OF_DATA;
        }
        if (remaining < 4) {
            return bad("partial length field");
        }
        int length = input.readInt(position, recordHeader);
        if (length == 0) {
            return Outcome.ZERO_LENGTH;
        }
        if (!SegmentFormat.plausibleLength(length)) {
            return bad("impossible record length " + length);
        }
        if (remaining < SegmentFormat.RECORD_HEADER_BYTES - SegmentFormat.ZXID_BYTES + (long) length) {
            return bad("record of length " + length + " runs past the end of the data at " + limitBytes);
        }
        input.readFully(position, recordHeader, 0, SegmentFormat.RECORD_HEADER_BYTES);
        int storedCrc = recordHeaderView.getInt(4);
        long recordZxid = recordHeaderView.getLong(8);
        byte[] body = new byte[length - SegmentFormat.ZXID_BYTES];
        input.readFully(position + SegmentFormat.RECORD_HEADER_BYTES, body, 0, body.length);
        crc.reset();
        crc.update(recordHeader, 8, SegmentFormat.ZXID_BYTES);
        crc.update(body, 0, body.length);
        if ((int) crc.getValue() != storedCrc) {
            return bad("CRC32C mismatch");
        }
        if (recordZxid <= previousZxid) {
            return bad("zxid 0x" + Long.toHexString(recordZxid) + " does not follow 0x"
                    + Long.toHexString(previousZxid));
        }
        zxid = recordZxid;
        previousZxid = recordZxid;
        payload = body;
        position += SegmentFormat.recordBytes(body.length);
        return Outcome.RECORD;
    }

    /** Start of the record last returned or rejected by {@link #next()}. */
    long recordStart() {
        return recordStart;
    }

    /** Where the next record would start: the end of the last whole record. */
    long position() {
        return position;
    }

    long zxid() {
        return zxid;
    }

    byte[] payload() {
        return payload;
    }

    String badReason() {
        return badReason;
    }

    private Outcome bad(String reason) {
        badReason = reason;
        return Outcome.BAD;
    }
}
