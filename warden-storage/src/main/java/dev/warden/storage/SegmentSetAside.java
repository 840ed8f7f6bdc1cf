package dev.warden.storage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/** Takes every segment out of a log directory, newest first, deleting it or moving it into a set-aside directory. */
final class SegmentSetAside {

    private SegmentSetAside() {
    }

    /**
     * Empties {@code segments}, newest first, deleting each file, or moving it into
     * {@code setAsideInto} (created if needed) when that is not null; then fsyncs the directories
     * that changed, so the removal is durable before the log is used again.
     */
    static void removeAll(List<Segment> segments, Path dir, Path setAsideInto, FileChannelFactory channels)
            throws IOException {
        if (setAsideInto != null && !segments.isEmpty()) {
            Files.createDirectories(setAsideInto);
        }
        boolean deleted = false;
        while (!segments.isEmpty()) {
            Segment doomed = segments.remove(segments.size() - 1);
            if (setAsideInto != null) {
                Files.move(doomed.path, setAsideInto.resolve(doomed.path.getFileName()),
                        StandardCopyOption.ATOMIC_MOVE);
            } else {
                Files.deleteIfExists(doomed.path);
            }
            deleted = true;
        }
        if (deleted) {
            if (setAsideInto != null) {
                Directories.fsync(setAsideInto, channels);
            }
            Directories.fsync(dir, channels);
        }
    }
}
