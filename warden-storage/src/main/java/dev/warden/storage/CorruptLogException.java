package dev.warden.storage;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A log record before the tail of the log is damaged. The member must not serve from this log;
 * see docs/STORAGE.md for the ways out.
 */
public final class CorruptLogException extends IOException {

    private final transient Path file;
    private final long offset;

    public CorruptLogException(Path file, long offset, String reason) {
        super("corrupt transaction log " + file + " at byte offset " + offset + ": " + reason);
        this.file = file;
        this.offset = offset;
    }

    public Path file() {
        return file;
    }

    /** Byte offset in {@link #file()} where the first bad record starts. */
    public long offset() {
        return offset;
    }
}
