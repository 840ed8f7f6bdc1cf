package dev.warden.storage;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;

/** File-system helpers shared by the log and the snapshot store. */
final class Directories {

    private Directories() {
    }

    /**
     * Makes creations, renames and deletions in {@code dir} durable: without this a crash can
     * forget a freshly fsynced file's name, or bring a deleted file back.
     */
    static void fsync(Path dir, FileChannelFactory channels) throws IOException {
        try (FileChannel channel = channels.open(dir, Set.of(StandardOpenOption.READ))) {
            channel.force(true);
        }
    }
}
