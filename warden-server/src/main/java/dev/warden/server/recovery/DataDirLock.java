package dev.warden.server.recovery;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An exclusive lock on a data directory, held by a running server and by the offline tools
 * (snapshot take, restore, purge, import), so that a tool never rewrites files a server is
 * using and two servers never share one directory. It is an operating-system lock on the file
 * {@code warden.lock} in the data directory, which holds the owner's process id for messages:
 * the lock goes with the process however it ends (kill -9 included), so a stale file never
 * blocks anyone. The file itself is left in place.
 */
public final class DataDirLock implements AutoCloseable {
    public static final String FILE_NAME = "warden.lock";

    private final Path file;
    private final FileChannel channel;
    private final FileLock lock;

    private DataDirLock(Path file, FileChannel channel, FileLock lock) {
        this.file = file;
        this.channel = channel;
        this.lock = lock;
    }

    /** The directory is locked by someone else; the message names the owner and the way out. */
    public static final class InUseException extends IOException {
        private static final long serialVersionUID = 1L;

        InUseException(String message) {
            super(message);
        }
    }

    /**
     * Takes the lock on {@code dataDir} (created if missing) for {@code purpose} ("a server",
     * "warden purge", ...), or throws {@link InUseException} naming the process that holds it.
     */
    public static DataDirLock acquire(Path dataDir, String purpose) throws IOException {
        Files.createDirectories(dataDir);
        Path file = dataDir.resolve(FILE_NAME);
        FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException sameProcess) {
            lock = null;
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        if (lock == null) {
            String owner = readOwner(file);
            channel.close();
            throw new InUseException(dataDir + " is in use by " + (owner.isEmpty() ? "another process" : owner)
                    + " (it holds the lock on " + file + "), so " + purpose + " cannot use it. Stop that"
                    + " server or tool first.");
        }
        try {
            byte[] text = ("pid " + ProcessHandle.current().pid() + ", " + purpose + "\n")
                    .getBytes(StandardCharsets.UTF_8);
            channel.truncate(0);
            channel.write(ByteBuffer.wrap(text), 0);
        } catch (IOException | RuntimeException e) {
            lock.release();
            channel.close();
            throw e;
        }
        return new DataDirLock(file, channel, lock);
    }

    /** True if some process holds the lock on {@code dataDir} now (this one included). */
    public static boolean isHeld(Path dataDir) throws IOException {
        Path file = dataDir.resolve(FILE_NAME);
        if (!Files.exists(file)) {
            return false;
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            FileLock probe = channel.tryLock();
            if (probe == null) {
                return true;
            }
            probe.release();
            return false;
        } catch (OverlappingFileLockException sameProcess) {
            return true;
        } catch (NoSuchFileException gone) {
            return false;
        }
    }

    private static String readOwner(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8).trim();
        } catch (IOException | RuntimeException unreadable) {
            return "";
        }
    }

    public Path file() {
        return file;
    }

    /** Releases the lock; idempotent (a server that failed part-way through start-up may close twice). */
    @Override
    public void close() throws IOException {
        if (!channel.isOpen()) {
            return;
        }
        try {
            lock.release();
        } finally {
            channel.close();
        }
    }
}
