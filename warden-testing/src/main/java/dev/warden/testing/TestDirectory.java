package dev.warden.testing;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystem;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Where a test server keeps its data, and what becomes of it on close:
 * <ul>
 *   <li>{@link #inMemory()}: a directory on a file system of its own that lives in the JVM's heap
 *       (Jimfs). Nothing reaches a real file system; the data outlives a server restart in this
 *       JVM and is gone once this is closed.</li>
 *   <li>{@link #temporaryOnDisk()}: a new directory under {@code java.io.tmpdir}, deleted on close.</li>
 *   <li>{@link #given(Path)}: the caller's directory (on any file system), kept on close.</li>
 * </ul>
 */
final class TestDirectory implements AutoCloseable {
    /** The data's directory on an in-memory file system. */
    private static final String IN_MEMORY_ROOT = "/warden";

    private final Path path;
    private final Cleanup cleanup;

    @FunctionalInterface
    private interface Cleanup {
        void run() throws IOException;
    }

    private TestDirectory(Path path, Cleanup cleanup) {
        this.path = path;
        this.cleanup = cleanup;
    }

    /** A directory on a new in-memory file system; closing this closes (frees) the file system. */
    static TestDirectory inMemory() {
        FileSystem memory = Jimfs.newFileSystem(Configuration.unix());
        try {
            return new TestDirectory(Files.createDirectories(memory.getPath(IN_MEMORY_ROOT)), memory::close);
        } catch (IOException e) {
            closeQuietly(memory, e);
            throw new UncheckedIOException("cannot create the data directory on an in-memory file system", e);
        }
    }

    /** A new directory under {@code java.io.tmpdir}, deleted with everything in it on close. */
    static TestDirectory temporaryOnDisk() {
        Path parent = Path.of(System.getProperty("java.io.tmpdir"));
        try {
            Path made = Files.createTempDirectory(parent, "warden-test-");
            return new TestDirectory(made, () -> deleteTree(made));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary directory for a test server under " + parent
                    + " (java.io.tmpdir)", e);
        }
    }

    /** The caller's directory, created if missing, never deleted by us. */
    static TestDirectory given(Path path) {
        try {
            Files.createDirectories(path);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the test server directory " + path, e);
        }
        return new TestDirectory(path, () -> { });
    }

    Path path() {
        return path;
    }

    /** Frees the in-memory file system or deletes the temporary directory; leaves a given one alone. */
    @Override
    public void close() {
        try {
            cleanup.run();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove the test server's data in " + path, e);
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
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
    }

    private static void deleteIfThere(Path path) throws IOException {
        try {
            Files.delete(path);
        } catch (NoSuchFileException alreadyGone) {
            // a server that was still closing removed it
        }
    }

    private static void closeQuietly(FileSystem fileSystem, Exception failure) {
        try {
            fileSystem.close();
        } catch (IOException e) {
            failure.addSuppressed(e);
        }
    }
}
