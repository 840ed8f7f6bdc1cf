package dev.warden.storage;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32C;

/**
 * On-disk layout of a snapshot file.
 *
 * <pre>
 * snapshot = header body trailer
 * header   = int magic "WSNP", int version (2 or 3), long zxid     (16 bytes)
 * trailer  = long bodyLength, int crc32c(header + body)             (12 bytes)
 * </pre>
 * The body is the server's; version 2 is the body that ends with the zxid the fuzzy snapshot
 * had reached when it was finished, version 3 the same body compressed with gzip
 * ({@code snapshot.compression.method=gz}; length and checksum are of the stored bytes). Files of
 * other versions are not read.
 */
final class SnapshotFormat {

    static final int MAGIC = 0x57534E50; // "WSNP"
    static final int VERSION = 2;
    static final int VERSION_GZIP = 3;
    static final int HEADER_BYTES = 16;
    static final int TRAILER_BYTES = 12;
    static final String TEMP_SUFFIX = ".tmp";

    private static final Pattern NAME = Pattern.compile("snapshot\\.([0-9a-f]{16})");

    private SnapshotFormat() {
    }

    static String fileName(long zxid) {
        return String.format(Locale.ROOT, "snapshot.%016x", zxid);
    }

    static OptionalLong zxidOf(Path file) {
        Matcher matcher = NAME.matcher(file.getFileName().toString());
        if (!matcher.matches()) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(Long.parseUnsignedLong(matcher.group(1), 16));
    }

    static byte[] header(long zxid) {
        return header(zxid, VERSION);
    }

    static byte[] header(long zxid, int version) {
        return ByteBuffer.allocate(HEADER_BYTES).putInt(MAGIC).putInt(version).putLong(zxid).array();
    }

    /** The format version in the header of an open snapshot file. */
    static int version(FileChannel channel) throws IOException {
        ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES);
        readFully(channel, header, 0);
        return header.getInt(4);
    }

    /** Why the file fails verification, or empty if header, length and checksum all agree. */
    static Optional<String> verify(Path file, long zxid) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long sizeBytes = channel.size();
            if (sizeBytes < HEADER_BYTES + TRAILER_BYTES) {
                return Optional.of("file of " + sizeBytes + " bytes is too short");
            }
            ByteBuffer trailer = ByteBuffer.allocate(TRAILER_BYTES);
            readFully(channel, trailer, sizeBytes - TRAILER_BYTES);
            long bodyBytes = trailer.getLong(0);
            if (bodyBytes != sizeBytes - HEADER_BYTES - TRAILER_BYTES) {
                return Optional.of("trailer says " + bodyBytes + " body bytes, file holds "
                        + (sizeBytes - HEADER_BYTES - TRAILER_BYTES));
            }
            ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES);
            readFully(channel, header, 0);
            if (header.getInt(0) != MAGIC) {
                return Optional.of("not a snapshot (bad magic)");
            }
            if (header.getInt(4) != VERSION && header.getInt(4) != VERSION_GZIP) {
                return Optional.of("snapshot format version " + header.getInt(4) + "; this Warden reads only versions "
                        + VERSION + " and " + VERSION_GZIP);
            }
            if (header.getLong(8) != zxid) {
                return Optional.of("header names zxid 0x" + Long.toHexString(header.getLong(8))
                        + " but the file name says 0x" + Long.toHexString(zxid));
            }
            CRC32C crc = new CRC32C();
            byte[] chunk = new byte[64 * 1024];
            channel.position(0);
            InputStream in = new LimitedInputStream(Channels.newInputStream(channel), sizeBytes - TRAILER_BYTES);
            for (int read = in.read(chunk); read > 0; read = in.read(chunk)) {
                crc.update(chunk, 0, read);
            }
            if ((int) crc.getValue() != trailer.getInt(8)) {
                return Optional.of("CRC32C mismatch");
            }
            return Optional.empty();
        }
    }

    private static void readFully(FileChannel channel, ByteBuffer target, long position) throws IOException {
        long at = position;
        while (target.hasRemaining()) {
            int read = channel.read(target, at);
            if (read < 0) {
                throw new IOException("unexpected end of file");
            }
            at += read;
        }
    }
}
