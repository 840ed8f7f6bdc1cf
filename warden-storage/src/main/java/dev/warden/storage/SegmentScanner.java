package dev.warden.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * Verifies one segment file when the log is opened and classifies how it ends. The torn-tail
 * versus corruption rule is documented on {@link TxnLog}. Damage is reported, not thrown: whether
 * it stops the server depends on whether recovery needs the segment ({@link LogScan}).
 */
final class SegmentScanner {

    /**
     * What a segment holds.
     *
     * @param previousZxid the zxid its header says precedes its first record (0 when unknown)
     * @param recordCount  whole, verified records before any damage
     * @param lastZxid     zxid of the last of them (the header's previous zxid when there are none)
     * @param dataEndBytes end of the last whole record: where the next record goes
     * @param tornTail     true if bytes after {@code dataEndBytes} must be cut off
     * @param tornReason   why the tail was judged torn (null when it is not)
     * @param damage       corruption found in the segment, or null
     */
    record Result(long previousZxid, int recordCount, long lastZxid, long dataEndBytes, boolean tornTail,
                  String tornReason, LogScan.Damage damage) {
    }

    private SegmentScanner() {
    }

    static Result scan(Path file, FileChannel channel, long firstZxid, boolean lastSegment) throws IOException {
        long sizeBytes = channel.size();
        ChannelInput input = new ChannelInput(channel);
        if (sizeBytes < SegmentFormat.HEADER_BYTES || input.isZero(0, SegmentFormat.HEADER_BYTES)) {
            // A crash right after the file was created can leave it short or unwritten; that is
            // only believable for the newest segment and only if nothing at all was written.
            if (lastSegment && input.isZero(0, sizeBytes)) {
                return new Result(0, 0, 0, 0, true, "segment header never reached the disk", null);
            }
            return damaged(0, 0, "missing segment header");
        }
        ByteBuffer header = ByteBuffer.allocate(SegmentFormat.HEADER_BYTES);
        input.readFully(0, header.array(), 0, SegmentFormat.HEADER_BYTES);
        LogScan.Damage headerDamage = checkHeader(header, firstZxid);
        if (headerDamage != null) {
            return new Result(0, 0, 0, 0, false, null, headerDamage);
        }
        long previousZxid = header.getLong(16);
        if (previousZxid < 0 || previousZxid >= firstZxid) {
            return damaged(16, previousZxid, "header says the segment follows zxid 0x" + Long.toHexString(previousZxid)
                    + ", which is not below its first zxid 0x" + Long.toHexString(firstZxid));
        }

        SegmentReader reader = new SegmentReader(input, SegmentFormat.HEADER_BYTES, sizeBytes, previousZxid);
        int count = 0;
        long lastZxid = previousZxid;
        while (true) {
            SegmentReader.Outcome outcome = reader.next();
            switch (outcome) {
                case RECORD -> {
                    if (count == 0 && reader.zxid() != firstZxid) {
                        return new Result(previousZxid, 0, previousZxid, SegmentFormat.HEADER_BYTES, false, null,
                                new LogScan.Damage(reader.recordStart(), "first record has zxid 0x"
                                        + Long.toHexString(reader.zxid()) + " but the file name says 0x"
                                        + Long.toHexString(firstZxid)));
                    }
                    count++;
                    lastZxid = reader.zxid();
                }
                case END_OF_DATA -> {
                    return clean(previousZxid, count, lastZxid, reader.position(), lastSegment);
                }
                case ZERO_LENGTH -> {
                    if (input.isZero(reader.position(), sizeBytes)) {
                        return clean(previousZxid, count, lastZxid, reader.position(), lastSegment);
                    }
                    return badRecord(input, sizeBytes, reader.recordStart(), previousZxid, count, lastZxid,
                            "zero length field followed by non-zero bytes", lastSegment);
                }
                case BAD -> {
                    return badRecord(input, sizeBytes, reader.recordStart(), previousZxid, count, lastZxid,
                            reader.badReason(), lastSegment);
                }
                default -> throw new IllegalStateException("unknown outcome " + outcome);
            }
        }
    }

    private static Result damaged(long offset, long previousZxid, String reason) {
        return new Result(previousZxid, 0, previousZxid, 0, false, null, new LogScan.Damage(offset, reason));
    }

    private static LogScan.Damage checkHeader(ByteBuffer view, long firstZxid) {
        if (view.getInt(0) != SegmentFormat.MAGIC) {
            return new LogScan.Damage(0, "not a log segment (bad magic)");
        }
        if (view.getInt(4) != SegmentFormat.VERSION) {
            return new LogScan.Damage(4, "segment format version " + view.getInt(4) + "; this Warden reads only version "
                    + SegmentFormat.VERSION + ", whose header records the zxid each segment follows");
        }
        if (view.getLong(8) != firstZxid) {
            return new LogScan.Damage(8, "header names first zxid 0x" + Long.toHexString(view.getLong(8))
                    + " but the file name says 0x" + Long.toHexString(firstZxid));
        }
        return null;
    }

    private static Result clean(long previousZxid, int count, long lastZxid, long dataEnd, boolean lastSegment) {
        if (count == 0 && !lastSegment) {
            return new Result(previousZxid, 0, previousZxid, dataEnd, false, null,
                    new LogScan.Damage(dataEnd, "an older segment holds no records"));
        }
        return new Result(previousZxid, count, lastZxid, dataEnd, false, null, null);
    }

    private static Result badRecord(ChannelInput input, long sizeBytes, long badOffset, long previousZxid, int count,
                                    long lastZxid, String reason, boolean lastSegment) throws IOException {
        if (!lastSegment) {
            return new Result(previousZxid, count, lastZxid, badOffset, false, null,
                    new LogScan.Damage(badOffset, reason + " (in a segment that is not the newest)"));
        }
        if (validRecordFollows(input, badOffset, sizeBytes, lastZxid)) {
            return new Result(previousZxid, count, lastZxid, badOffset, false, null,
                    new LogScan.Damage(badOffset, reason + " (valid records follow it)"));
        }
        return new Result(previousZxid, count, lastZxid, badOffset, true, reason, null);
    }

    /**
     * Looks for any verifiable record starting after {@code badOffset} with a zxid above
     * {@code lastZxid}. Its presence means the damage is not an unfinished final write.
     */
    private static boolean validRecordFollows(ChannelInput input, long badOffset, long sizeBytes, long lastZxid)
            throws IOException {
        long searchEnd = input.lastNonZeroByte(badOffset + 1, sizeBytes);
        byte[] scratch = new byte[SegmentFormat.RECORD_HEADER_BYTES];
        ByteBuffer view = ByteBuffer.wrap(scratch);
        for (long at = badOffset + 1; at <= searchEnd && at + SegmentFormat.RECORD_HEADER_BYTES <= sizeBytes; at++) {
            input.readFully(at, scratch, 0, SegmentFormat.RECORD_HEADER_BYTES);
            int length = view.getInt(0);
            if (!SegmentFormat.plausibleLength(length) || view.getLong(8) <= lastZxid
                    || at + SegmentFormat.RECORD_HEADER_BYTES - SegmentFormat.ZXID_BYTES + (long) length > sizeBytes) {
                continue;
            }
            SegmentReader candidate = new SegmentReader(input, at, sizeBytes, lastZxid);
            if (candidate.next() == SegmentReader.Outcome.RECORD) {
                return true;
            }
        }
        return false;
    }
}
