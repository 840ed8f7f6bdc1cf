package dev.warden.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * A directory for a test server's data: one the caller gave (kept on close) or a temporary one
 * this module made (deleted on close). In memory mode the temporary directory is made on a RAM
 * file system ({@code /dev/shm}, where the machine has one), so the server's log and snapshots
 * never reach a disk.
 */
final class TestDirectory implements AutoCloseable {
    /** Linux mounts a tmpfs here; elsewhere the JVM's temporary directory is used. */
    static final Path RAM_FILE_SYSTEM = Path.of("/dev/shm");

    private final Path path;
    private final boolean ownedByUs;

    private TestDirectory(Path path, boolean ownedByUs) {
        this.path = path;
        this.ownedByUs = ownedByUs;
    }

    /** The caller's directory, created if missing, never deleted by us. */
    static TestDirectory given(Path path) {
        try {
            Files.createDirectories(path);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the test server directory " + path, e);
        }
        return new TestDirectory(path, false);
    }

    /** A new temporary directory, in RAM when {@code inMemory} and the machine has a tmpfs. */
    static TestDirectory temporary(boolean inMemory) {
        try {
            Path parent = inMemory && Files.isDirectory(RAM_FILE_SYSTEM) && Files.isWritable(RAM_FILE_SYSTEM)
                    ? RAM_FILE_SYSTEM : Path.of(System.getProperty("java.io.tmpdir"));
            return new TestDirectory(Files.createTempDirectory(parent, "warden-test-"), true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary directory for a test server", e);
        }
    }

    Path path() {
        return path;
    }

    boolean isTemporary() {
        return ownedByUs;
    }

    /** Deletes a temporary directory with everything in it; leaves a given one alone. */
    @Override
    public void close() {
        if (ownedByUs) {
            deleteTree(path);
        }
    }

    static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    deleteIfThere(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException failure) throws IOException {
                    deleteIfThere(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the test server directory " + root, e);
        }
    }

    private static void deleteIfThere(Path path) throws IOException {
        try {
            Files.delete(path);
        } catch (NoSuchFileException alreadyGone) {
            // a server that was still closing removed it
        }
    }
}
