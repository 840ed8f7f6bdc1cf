package dev.warden.server.recovery;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Where a server keeps its files: snapshots under {@code dataDir/snapshots}, the transaction
 * log under {@code dataLogDir/log}, and, beside each, the directories recovery moves files it
 * will not use into ({@code snapshots.set-aside-<UTC time>}, {@code log.set-aside-<UTC time>}).
 * Nothing is ever deleted by recovery: an operator can look at what was set aside, and remove it.
 */
public record DataLayout(Path dataDir, Path dataLogDir) {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
            .withZone(ZoneOffset.UTC);

    public Path snapshotsDir() {
        return dataDir.resolve("snapshots");
    }

    public Path logDir() {
        return dataLogDir.resolve("log");
    }

    /** A fresh directory name beside {@code dir} for what is set aside now; not created. */
    public static Path setAsideDirFor(Path dir, long wallTimeMs) {
        String base = dir.getFileName() + ".set-aside-" + STAMP.format(Instant.ofEpochMilli(wallTimeMs));
        Path candidate = dir.resolveSibling(base);
        for (int n = 2; Files.exists(candidate); n++) {
            candidate = dir.resolveSibling(base + "-" + n);
        }
        return candidate;
    }

    /** True if {@code dir} holds nothing (or does not exist). */
    static boolean isEmpty(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return true;
        }
        try (var entries = Files.list(dir)) {
            return entries.findAny().isEmpty();
        }
    }
}
