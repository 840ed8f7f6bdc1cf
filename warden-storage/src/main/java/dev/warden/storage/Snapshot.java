package dev.warden.storage;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A snapshot file whose checksum has been verified.
 *
 * @param zxid the zxid the snapshot was started at; replay the log after it
 * @param file the snapshot file
 */
public record Snapshot(long zxid, Path file) {

    /**
     * The last {@code count} bytes of the body (where a body may keep what must be read without
     * parsing it). A compressed body is read through to its end for them.
     */
    public byte[] readBodyTail(int count) throws IOException {
        if (isCompressed()) {
            return tailOfStream(count);
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long bodyEnd = channel.size() - SnapshotFormat.TRAILER_BYTES;
            if (bodyEnd - SnapshotFormat.HEADER_BYTES < count) {
                throw new IOException("snapshot " + file + " has a body shorter than " + count + " bytes");
            }
            java.nio.ByteBuffer tail = java.nio.ByteBuffer.allocate(count);
            long at = bodyEnd - count;
            while (tail.hasRemaining()) {
                int read = channel.read(tail, at);
                if (read < 0) {
                    throw new IOException("unexpected end of " + file);
                }
                at += read;
            }
            return tail.array();
        }
    }

    /** True if the body is stored compressed (format version 3). */
    public boolean isCompressed() throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            return SnapshotFormat.version(channel) == SnapshotFormat.VERSION_GZIP;
        }
    }

    private byte[] tailOfStream(int count) throws IOException {
        byte[] ring = new byte[count];
        long total = 0;
        byte[] chunk = new byte[64 * 1024];
        try (InputStream body = openBody()) {
            for (int read = body.read(chunk); read > 0; read = body.read(chunk)) {
                for (int i = 0; i < read; i++) {
                    ring[(int) (total++ % count)] = chunk[i];
                }
            }
        }
        if (total < count) {
            throw new IOException("snapshot " + file + " has a body shorter than " + count + " bytes");
        }
        byte[] tail = new byte[count];
        for (int i = 0; i < count; i++) {
            tail[i] = ring[(int) ((total - count + i) % count)];
        }
        return tail;
    }

    /** A stream over the body only (header and trailer excluded), decompressed if it is stored compressed. */
    public DataInputStream openBody() throws IOException {
        FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
        try {
            long bodyBytes = channel.size() - SnapshotFormat.HEADER_BYTES - SnapshotFormat.TRAILER_BYTES;
            if (bodyBytes < 0) {
                throw new IOException("snapshot " + file + " is shorter than its framing");
            }
            boolean compressed = SnapshotFormat.version(channel) == SnapshotFormat.VERSION_GZIP;
            channel.position(SnapshotFormat.HEADER_BYTES);
            InputStream body = new LimitedInputStream(Channels.newInputStream(channel), bodyBytes);
            if (compressed) {
                body = new java.util.zip.GZIPInputStream(new BufferedInputStream(body, 64 * 1024), 64 * 1024);
            }
            return new DataInputStream(new BufferedInputStream(body, 64 * 1024));
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }
}
