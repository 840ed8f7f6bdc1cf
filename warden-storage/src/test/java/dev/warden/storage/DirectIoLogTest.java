package dev.warden.storage;

import static dev.warden.storage.LogFixtures.appendAll;
import static dev.warden.storage.LogFixtures.assertRecords;
import static dev.warden.storage.LogFixtures.reopenAndReadAll;
import static dev.warden.storage.LogFixtures.smallSegments;
import static dev.warden.storage.LogFixtures.zxids;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The log with direct I/O on and off: one segment written both ways across restarts reads back
 * whole, and a file system that refuses {@code O_DIRECT} gets a log that writes through the page
 * cache instead of one that fails.
 */
class DirectIoLogTest {
    @TempDir
    Path dir;

    @Test
    void aLogWrittenWithAndWithoutDirectIoAcrossRestartsReadsBackWhole() throws IOException {
        TxnLogOptions direct = smallSegments().withPreallocateBytes(64 * 1024).withSegmentMaxBytes(1 << 20)
                .withDirectIo(true);
        TxnLogOptions buffered = direct.withDirectIo(false);
        List<LogRecord> written = new ArrayList<>();
        long next = 1;
        for (TxnLogOptions options : List.of(direct, buffered, direct, buffered, direct)) {
            try (TxnLog log = TxnLog.open(dir, options)) {
                written.addAll(appendAll(log, zxids(next, 40, 1), 333, 7));
                next += 40;
            }
        }
        assertRecords(written, reopenAndReadAll(dir, direct));
        assertRecords(written, reopenAndReadAll(dir, buffered));
    }

    @Test
    void aFileSystemThatRefusesDirectIoGetsALogThroughThePageCache() throws IOException {
        AtomicInteger refusals = new AtomicInteger();
        FileChannelFactory refusingDirect = new FileChannelFactory() {
            @Override
            public FileChannel open(Path path, Set<? extends OpenOption> options) throws IOException {
                if (options.contains(DirectIo.OPTION)) {
                    refusals.incrementAndGet();
                    throw new IOException("Invalid argument"); // what open(2) says for O_DIRECT on tmpfs
                }
                return FileChannel.open(path, options);
            }
        };
        TxnLogOptions options = smallSegments().withChannels(refusingDirect).withDirectIo(true);
        List<LogRecord> written;
        try (TxnLog log = TxnLog.open(dir, options)) {
            written = appendAll(log, zxids(1, 60, 1), 100, 6);
        }
        assertTrue(refusals.get() > 0, "the log asked for direct I/O");
        assertRecords(written, reopenAndReadAll(dir, options));
        assertEquals(written.size(), reopenAndReadAll(dir, options.withDirectIo(false)).size());
    }
}
