package dev.warden.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The file {@code base} in a log directory: the zxid the log continues from while it holds no
 * segment. A log that holds segments knows this from its first segment's header; one that was
 * emptied (restarted after a snapshot installed from the leader, or truncated to nothing) would
 * otherwise look the same as one whose segments were deleted, and recovery could not tell a log
 * that really holds nothing after its snapshot from one that lost everything. Written atomically
 * (temporary file, fsync, rename, directory fsync) before the segments go, and removed once a
 * segment exists again.
 */
final class LogBase {
    static final String FILE_NAME = "base";
    private static final String TEMP_NAME = "base.tmp";

    private LogBase() {
    }

    static OptionalLong read(Path dir) throws IOException {
        String text;
        try {
            text = Files.readString(dir.resolve(FILE_NAME), StandardCharsets.US_ASCII).trim();
        } catch (NoSuchFileException absent) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseUnsignedLong(text, 16));
        } catch (NumberFormatException garbage) {
            throw new CorruptLogException(dir.resolve(FILE_NAME), 0, "holds '" + text + "', not a zxid");
        }
    }

    static void write(Path dir, long zxid, FileChannelFactory channels) throws IOException {
        Path temp = dir.resolve(TEMP_NAME);
        byte[] text = String.format("%016x%n", zxid).getBytes(StandardCharsets.US_ASCII);
        try (FileChannel channel = channels.open(temp, Set.of(StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE))) {
            ByteBuffer buffer = ByteBuffer.wrap(text);
            long at = 0;
            while (buffer.hasRemaining()) {
                at += channel.write(buffer, at);
            }
            channel.force(true);
        }
        Files.move(temp, dir.resolve(FILE_NAME), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        Directories.fsync(dir, channels);
    }

    /** Removes the file; once a segment exists its header says where the log starts. */
    static void delete(Path dir) throws IOException {
        Files.deleteIfExists(dir.resolve(FILE_NAME));
    }
}
