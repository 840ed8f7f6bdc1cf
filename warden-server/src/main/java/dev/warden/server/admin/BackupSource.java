package dev.warden.server.admin;

import java.io.IOException;
import java.nio.file.Path;

/** What the snapshot command needs from the server: a consistent snapshot written on demand. */
public interface BackupSource {
    /**
     * Writes a snapshot of the whole state as of one zxid (no transaction applied while it is
     * written, so it needs no log to be exact) into {@code dir}, in Warden's snapshot file format,
     * and returns the file.
     */
    Path writeConsistentSnapshot(Path dir) throws IOException;
}
