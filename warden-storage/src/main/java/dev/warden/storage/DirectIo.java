package dev.warden.storage;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** What the log needs to know about direct I/O on a file system (see {@link DirectWriter}). */
final class DirectIo {
    private static final Logger LOG = LoggerFactory.getLogger(DirectIo.class);

    static final OpenOption OPTION = ExtendedOpenOption.DIRECT;

    /** Never below a page: any file system's direct I/O alignment divides it. */
    private static final int MIN_BLOCK_BYTES = 4096;
    private static final int MAX_BLOCK_BYTES = 64 * 1024;

    /** Directories already reported as refusing direct I/O, so each is logged once. */
    private static final Set<Path> REPORTED = ConcurrentHashMap.newKeySet();

    private DirectIo() {
    }

    /** The alignment for direct I/O under {@code dir}, or 0 when it cannot be used there. */
    static int blockBytes(Path dir) {
        if (!Directories.isOperatingSystemFileSystem(dir)) {
            // Another provider (an in-memory file system) has no page cache to bypass, and may
            // accept O_DIRECT without meaning it; nothing to warn about either, and remembering
            // its paths in REPORTED would keep its whole file system reachable after it closed.
            return 0;
        }
        long storeBlockBytes;
        try {
            storeBlockBytes = Files.getFileStore(dir).getBlockSize();
        } catch (IOException | UnsupportedOperationException e) {
            refused(dir, e);
            return 0;
        }
        long blockBytes = Math.max(MIN_BLOCK_BYTES, storeBlockBytes);
        if (blockBytes > MAX_BLOCK_BYTES || Long.bitCount(blockBytes) != 1) {
            refused(dir, new IOException("file system block size " + storeBlockBytes + " is not usable for direct I/O"));
            return 0;
        }
        return (int) blockBytes;
    }

    static void refused(Path dir, Exception why) {
        if (REPORTED.add(dir.toAbsolutePath())) {
            LOG.warn("The file system of {} refuses direct I/O ({}); the transaction log writes through the page cache"
                    + " there, which costs a copy per append", dir, why.toString());
        }
    }
}
