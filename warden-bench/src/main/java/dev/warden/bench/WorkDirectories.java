package dev.warden.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** The scratch directories the benchmark commands create for servers' data and logs. */
public final class WorkDirectories {
    private WorkDirectories() {
    }

    /** Deletes {@code dir} and everything under it, as far as it can: what stays behind is only disk space. */
    public static void deleteTree(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a directory left behind is harmless
        }
    }
}
