package dev.warden.cli.crash;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Reads the record framing of the server's log segments from the outside, the way a disk fault
 * would see them: a 24-byte header, then records of {@code int length, int crc32c, long zxid,
 * payload} where {@code length} counts zxid and payload, then zero fill up to the file end.
 */
final class LogFiles {
    static final int SEGMENT_HEADER_BYTES = 24;
    /** The length and CRC fields, which {@code length} does not count. */
    static final int LENGTH_AND_CRC_BYTES = 8;
    static final int ZXID_BYTES = 8;

    /** One record as found in a segment. */
    record Entry(long offsetBytes, int length, long zxid) {
        long endBytes() {
            return offsetBytes + LENGTH_AND_CRC_BYTES + length;
        }
    }

    private LogFiles() {
    }

    /** Segment files in zxid order; their names carry the first zxid in fixed-width hex. */
    static List<Path> segments(Path dataDir) throws IOException {
        try (Stream<Path> files = Files.list(dataDir.resolve("log"))) {
            return files.filter(f -> f.getFileName().toString().matches("log\\.[0-9a-f]{16}")).sorted().toList();
        }
    }

    static Path newestSegment(Path dataDir) throws IOException {
        List<Path> all = segments(dataDir);
        if (all.isEmpty()) {
            throw new IllegalStateException("no log segment in " + dataDir);
        }
        return all.get(all.size() - 1);
    }

    /** The records up to the data end (the first zero length field or the file end). */
    static List<Entry> entries(Path segment) throws IOException {
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(segment));
        List<Entry> entries = new ArrayList<>();
        int at = SEGMENT_HEADER_BYTES;
        while (at + LENGTH_AND_CRC_BYTES + ZXID_BYTES <= bytes.limit()) {
            int length = bytes.getInt(at);
            if (length < ZXID_BYTES || at + LENGTH_AND_CRC_BYTES + (long) length > bytes.limit()) {
                break;
            }
            entries.add(new Entry(at, length, bytes.getLong(at + LENGTH_AND_CRC_BYTES)));
            at += LENGTH_AND_CRC_BYTES + length;
        }
        return entries;
    }

    /** Shortens the file to {@code sizeBytes}, dropping the zero fill and whatever lies beyond. */
    static void truncate(Path file, long sizeBytes) throws IOException {
        try (var channel = java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.WRITE)) {
            channel.truncate(sizeBytes);
        }
    }

    /** Inverts every bit of the byte at {@code offsetBytes}. */
    static void flipByte(Path file, long offsetBytes) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        bytes[Math.toIntExact(offsetBytes)] ^= (byte) 0xff;
        Files.write(file, bytes);
    }
}
