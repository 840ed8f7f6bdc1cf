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

    /** A stream over the body only (header and trailer excluded). */
    public DataInputStream openBody() throws IOException {
        FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
        try {
            long bodyBytes = channel.size() - SnapshotFormat.HEADER_BYTES - SnapshotFormat.TRAILER_BYTES;
            if (bodyBytes < 0) {
                throw new IOException("snapshot " + file + " is shorter than its framing");
            }
            channel.position(SnapshotFormat.HEADER_BYTES);
            InputStream body = new LimitedInputStream(Channels.newInputStream(channel), bodyBytes);
            return new DataInputStream(new BufferedInputStream(body, 64 * 1024));
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }
}
