package dev.warden.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * Verifies one segment file when the log is opened and classifies how it ends. The torn-tail
 * versus corruption rule is documented on {@link TxnLog}.
 */
final class SegmentScanner {

    /**
     * What a segment holds.
     *
     * @param recordCount  whole, verified records
     * @param lastZxid     zxid of the last of them (the previous segment's when there are none)
     * @param dataEndBytes end of the last whole record: where the next record goes
     * @param tornTail     true if bytes after {@code dataEndBytes} must be cut off
     * @param tornReason   why the tail was judged torn (null when it is not)
     */
    record Result(int recordCount, long lastZxid, long dataEndBytes, boolean tornTail, String tornReason) {
    }

    private SegmentScanner() {
    }

    static Result scan(Path file, FileChannel channel, long firstZxid, long previousZxid, boolean lastSegment)
            throws IOException {
        long sizeBytes = channel.size();
        ChannelInput input = new ChannelInput(channel);
        if (sizeBytes < SegmentFormat.HEADER_BYTES || input.isZero(0, SegmentFormat.HEADER_BYTES)) {
            // A crash right after the file was created can leave it short or unwritten; that is
            // only believable for the newest segment and only if nothing at all was written.
            if (lastSegment && input.isZero(0, sizeBytes)) {
                return new Result(0, previousZxid, 0, true, "segment header never reached the disk");
            }
            throw new CorruptLogException(file, 0, "missing segment header");
        }
        checkHeader(file, input, firstZxid);

        SegmentReader reader = new SegmentReader(input, SegmentFormat.HEADER_BYTES, sizeBytes, previousZxid);
        int count = 0;
        long lastZxid = previousZxid;
        while (true) {
            SegmentReader.Outcome outcome = reader.next();
            switch (outcome) {
                case RECORD -> {
                    if (count == 0 && reader.zxid() != firstZxid) {
                        throw new CorruptLogException(file, reader.recordStart(), "first record has zxid 0x"
                                + Long.toHexString(reader.zxid()) + " but the file name says 0x"
                                + Long.toHexString(firstZxid));
                    }
                    count++;
                    lastZxid = reader.zxid();
                }
                case END_OF_DATA -> {
                    return clean(file, count, lastZxid, reader.position(), lastSegment);
                }
                case ZERO_LENGTH -> {
                    if (input.isZero(reader.position(), sizeBytes)) {
                        return clean(file, count, lastZxid, reader.position(), lastSegment);
                    }
                    return badRecord(file, input, sizeBytes, reader.recordStart(), count, lastZxid,
                            "zero length field followed by non-zero bytes", lastSegment);
                }
                case BAD -> {
                    return badRecord(file, input, sizeBytes, reader.recordStart(), count, lastZxid,
                            reader.badReason(), lastSegment);
                }
                default -> throw new IllegalStateException("unknown outcome " + outcome);
            }
        }
    }

    private static void checkHeader(Path file, ChannelInput input, long firstZxid) throws IOException {
        byte[] header = new byte[SegmentFormat.HEADER_BYTES];
        input.readFully(0, header, 0, header.length);
        ByteBuffer view = ByteBuffer.wrap(header);
        if (view.getInt(0) != SegmentFormat.MAGIC) {
            throw new CorruptLogException(file, 0, "not a log segment (bad magic)");
        }
        if (view.getInt(4) != SegmentFormat.VERSION) {
            throw new CorruptLogException(file, 4, "unsupported segment version " + view.getInt(4));
        }
        if (view.getLong(8) != firstZxid) {
            throw new CorruptLogException(file, 8, "header names first zxid 0x" + Long.toHexString(view.getLong(8))
                    + " but the file name says 0x" + Long.toHexString(firstZxid));
        }
    }

    private static Result clean(Path file, int count, long lastZxid, long dataEnd, boolean lastSegment)
            throws CorruptLogException {
        if (count == 0 && !lastSegment) {
            throw new CorruptLogException(file, dataEnd, "an older segment holds no records");
        }
        return new Result(count, lastZxid, dataEnd, false, null);
    }

    private static Result badRecord(Path file, ChannelInput input, long sizeBytes, long badOffset, int count,
                                    long lastZxid, String reason, boolean lastSegment) throws IOException {
        if (!lastSegment) {
            throw new CorruptLogException(file, badOffset, reason + " (in a segment that is not the newest)");
        }
        if (validRecordFollows(input, badOffset, sizeBytes, lastZxid)) {
            throw new CorruptLogException(file, badOffset, reason + " (valid records follow it)");
        }
        return new Result(count, lastZxid, badOffset, true, reason);
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
