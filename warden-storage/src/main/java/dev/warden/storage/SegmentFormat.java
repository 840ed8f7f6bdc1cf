package dev.warden.storage;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * On-disk layout of a log segment.
 *
 * <pre>
 * segment  = header record* zero-fill*
 * header   = int magic "WLOG", int version (2), long firstZxid, long previousZxid     (24 bytes)
 * record   = int length, int crc32c, long zxid, byte[length - 8] payload
 * </pre>
 * {@code previousZxid} is the zxid of the record that precedes this segment's first record in
 * the log's history (0 when the log starts there): it links each segment to the one before it,
 * so recovery can tell a log that continues from one whose earlier part is missing.
 * {@code length} counts the zxid and the payload, so it is at least 8 and a length of 0 can
 * only be preallocated space: it marks the end of the data. The CRC32C covers zxid and payload.
 */
final class SegmentFormat {

    static final int MAGIC = 0x574C4F47; // "WLOG"
    static final int VERSION = 2;
    static final int HEADER_BYTES = 24;
    static final int RECORD_HEADER_BYTES = 16;
    /** Bytes of a record covered by {@code length} besides the payload: the zxid. */
    static final int ZXID_BYTES = 8;
    /** Largest payload a record may carry; anything larger in a length field is garbage. */
    static final int MAX_PAYLOAD_BYTES = 64 * 1024 * 1024;

    private static final Pattern NAME = Pattern.compile("log\\.([0-9a-f]{16})");

    private SegmentFormat() {
    }

    static String fileName(long firstZxid) {
        return String.format(Locale.ROOT, "log.%016x", firstZxid);
    }

    /** The first zxid encoded in a segment file name, or empty if the name is not a segment's. */
    static OptionalLong firstZxidOf(Path file) {
        Matcher matcher = NAME.matcher(file.getFileName().toString());
        if (!matcher.matches()) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(Long.parseUnsignedLong(matcher.group(1), 16));
    }

    static ByteBuffer header(long firstZxid, long previousZxid) {
        ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES);
        header.putInt(MAGIC).putInt(VERSION).putLong(firstZxid).putLong(previousZxid).flip();
        return header;
    }

    static long recordBytes(int payloadBytes) {
        return RECORD_HEADER_BYTES + (long) payloadBytes;
    }

    static boolean plausibleLength(int length) {
        return length >= ZXID_BYTES && length - ZXID_BYTES <= MAX_PAYLOAD_BYTES;
    }
}
