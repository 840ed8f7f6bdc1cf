package dev.warden.cli.data;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A directory a tool fills from scratch (restore, import): it must be missing or empty, and if
 * the tool fails part way, what it wrote is removed again, so the directory is never left half
 * written.
 */
public final class EmptyTarget {
    private EmptyTarget() {
    }

    /** Refuses unless {@code dir} is missing or holds nothing; {@code key} names it in the message. */
    public static void require(Path dir, String key, String tool) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        if (!Files.isDirectory(dir)) {
            throw new ToolRefusal(key + " " + dir + " is a file, not a directory");
        }
        Optional<Path> first;
        try (Stream<Path> entries = Files.list(dir)) {
            first = entries.findFirst();
        }
        if (first.isPresent()) {
            throw new ToolRefusal(key + " " + dir + " is not empty (it holds " + first.get().getFileName() + "): " + tool
                    + " writes only into an empty or new directory, so it never mixes with or replaces existing data."
                    + " Move that directory away or name a new one");
        }
    }

    /** Deletes everything under {@code dir} (and dir itself if {@code removeDir}); best effort, after a failure. */
    public static void clear(Path dir, boolean removeDir) {
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                if (removeDir || !path.equals(dir)) {
                    Files.deleteIfExists(path);
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // the failure that brought us here is what gets reported
        }
    }
}
