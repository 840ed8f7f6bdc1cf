package dev.warden.storage;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.zip.CRC32C;
import java.util.zip.GZIPInputStream;

/**
 * A whole snapshot file held in memory (one a client uploaded, say), checked with the same rules
 * as a file on disk: framing, magic, format version, body length and CRC32C.
 */
public final class SnapshotBytes {
    private SnapshotBytes() {
    }

    /** Why {@code file} is not a snapshot this Warden reads, or empty if its framing and checksum agree. */
    public static Optional<String> problem(byte[] file) {
        if (file.length < SnapshotFormat.HEADER_BYTES + SnapshotFormat.TRAILER_BYTES) {
            return Optional.of("it holds " + file.length + " bytes, fewer than a snapshot's header and trailer ("
                    + (SnapshotFormat.HEADER_BYTES + SnapshotFormat.TRAILER_BYTES) + ")");
        }
        ByteBuffer bytes = ByteBuffer.wrap(file);
        if (bytes.getInt(0) != SnapshotFormat.MAGIC) {
            return Optional.of("not a Warden snapshot (bad magic 0x" + Integer.toHexString(bytes.getInt(0)) + ")");
        }
        int version = bytes.getInt(4);
        if (version != SnapshotFormat.VERSION && version != SnapshotFormat.VERSION_GZIP) {
            return Optional.of("snapshot format version " + version + "; this Warden reads only versions "
                    + SnapshotFormat.VERSION + " and " + SnapshotFormat.VERSION_GZIP);
        }
        int trailerAt = file.length - SnapshotFormat.TRAILER_BYTES;
        long bodyBytes = bytes.getLong(trailerAt);
        if (bodyBytes != trailerAt - SnapshotFormat.HEADER_BYTES) {
            return Optional.of("its trailer says " + bodyBytes + " body bytes but it holds "
                    + (trailerAt - SnapshotFormat.HEADER_BYTES) + " (truncated or padded)");
        }
        CRC32C crc = new CRC32C();
        crc.update(file, 0, trailerAt);
        if ((int) crc.getValue() != bytes.getInt(trailerAt + Long.BYTES)) {
            return Optional.of("CRC32C mismatch (the file was damaged or changed)");
        }
        return Optional.empty();
    }

    /** The zxid in the header: the snapshot was started there. Only for bytes {@link #problem} accepts. */
    public static long zxid(byte[] file) {
        return ByteBuffer.wrap(file).getLong(8);
    }

    /** A stream over the body only, decompressed if stored compressed. Only for bytes {@link #problem} accepts. */
    public static DataInputStream openBody(byte[] file) throws IOException {
        int bodyBytes = file.length - SnapshotFormat.HEADER_BYTES - SnapshotFormat.TRAILER_BYTES;
        InputStream body = new ByteArrayInputStream(file, SnapshotFormat.HEADER_BYTES, bodyBytes);
        if (ByteBuffer.wrap(file).getInt(4) == SnapshotFormat.VERSION_GZIP) {
            body = new GZIPInputStream(body, 64 * 1024);
        }
        return new DataInputStream(new BufferedInputStream(body, 64 * 1024));
    }
}
