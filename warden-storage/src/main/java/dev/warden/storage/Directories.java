package dev.warden.storage;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;

/** File-system helpers shared by the log, the snapshot store and the server's small state files. */
public final class Directories {

    private Directories() {
    }

    /**
     * Makes creations, renames and deletions in {@code dir} durable: without this a crash can
     * forget a freshly fsynced file's name, or bring a deleted file back. Only the operating
     * system's file systems keep names on a device; another file system provider (the in-memory
     * one under a test server) cannot open a directory as a channel and has nothing to flush, so
     * there this does nothing.
     */
    public static void fsync(Path dir, FileChannelFactory channels) throws IOException {
        if (!isOperatingSystemFileSystem(dir)) {
            return;
        }
        try (FileChannel channel = channels.open(dir, Set.of(StandardOpenOption.READ))) {
            channel.force(true);
        }
    }

    /**
     * Whether {@code path} is on the operating system's file systems (the JVM's default
     * provider), the only ones where a directory fsync or {@code O_DIRECT} reaches a device.
     */
    static boolean isOperatingSystemFileSystem(Path path) {
        return path.getFileSystem() == FileSystems.getDefault();
    }
}
