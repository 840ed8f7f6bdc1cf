package dev.warden.cli.zookeeper;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A ZooKeeper file that is not what it should be: damaged, half written, or in a format this
 * reader does not know. The message names the file and the byte offset where reading failed.
 */
public final class ZkFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    private final transient Path file;
    private final long offsetBytes;

    public ZkFormatException(Path file, long offsetBytes, String reason) {
        super(file + " at byte offset " + offsetBytes + ": " + reason);
        this.file = file;
        this.offsetBytes = offsetBytes;
    }

    public Path file() {
        return file;
    }

    public long offsetBytes() {
        return offsetBytes;
    }
}
