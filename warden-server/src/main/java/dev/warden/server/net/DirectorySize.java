package dev.warden.server.net;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.stream.Stream;

/** The bytes of the regular files directly in a directory (the dirs word). */
final class DirectorySize {
    private DirectorySize() {
    }

    /** 0 for a directory that does not exist; files removed while counting are skipped. */
    static long bytesOf(Path dir) {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        long total = 0;
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                try {
                    if (Files.isRegularFile(file)) {
                        total += Files.size(file);
                    }
                } catch (NoSuchFileException removed) {
                    // purged or renamed while we counted
                }
            }
        } catch (IOException | UncheckedIOException e) {
            return total;
        }
        return total;
    }
}
