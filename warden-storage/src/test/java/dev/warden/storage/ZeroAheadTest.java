package dev.warden.storage;

import static dev.warden.storage.LogFixtures.appendAll;
import static dev.warden.storage.LogFixtures.assertRecords;
import static dev.warden.storage.LogFixtures.reopenAndReadAll;
import static dev.warden.storage.LogFixtures.zxids;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Zeros written ahead of the data after light batches, with direct I/O: they go only past the
 * block that holds the data's end and inside the preallocated space, later appends land on them
 * rather than on holes, heavy batches do without them, and a failure to write them fails no flush.
 */
class ZeroAheadTest {
    private static final int RECORD_PAYLOAD_BYTES = 1000;

    @TempDir
    Path dir;

    private final FaultInjectingChannels channels = new FaultInjectingChannels();
    private final List<Write> writes = new ArrayList<>();
    private int blockBytes;

    /** One write as the file saw it. */
    private record Write(long fromBytes, long toBytes, boolean allZeros) {
    }

    @BeforeEach
    void recordWrites() throws IOException {
        blockBytes = DirectIo.blockBytes(dir);
        assumeTrue(blockBytes > 0 && acceptsDirectIo(dir), "the test directory's file system refuses O_DIRECT");
        channels.hookWrites((file, positionBytes, bytes) -> {
            if (file.getFileName().toString().startsWith("log.")) {
                writes.add(new Write(positionBytes, positionBytes + bytes.remaining(), allZeros(bytes)));
            }
        });
    }

    private TxnLogOptions options() {
        return TxnLogOptions.defaults().withPreallocateBytes(4L * 1024 * 1024).withChannels(channels)
                .withDirectIo(true);
    }

    @Test
    void lightBatchesLeaveZerosAheadAndLaterAppendsLandOnThem() throws IOException {
        List<LogRecord> written;
        try (TxnLog log = TxnLog.open(dir, options())) {
            written = appendAll(log, zxids(1, 700, 1), RECORD_PAYLOAD_BYTES, 1);
        }

        List<Write> zerosAhead = writes.stream().filter(this::isZerosAhead).toList();
        assertTrue(zerosAhead.size() >= 2, "700 KiB of light batches wrote zeros ahead more than once: " + zerosAhead);
        assertZerosAheadOfTheDataAndAppendsOnWrittenBytes(writes);
        assertRecords(written, reopenAndReadAll(dir, options()));
    }

    @Test
    void afterARollbackTheZerosStartAgainAtTheData() throws IOException {
        List<LogRecord> written = new ArrayList<>();
        try (TxnLog log = TxnLog.open(dir, options())) {
            written.addAll(appendAll(log, zxids(1, 300, 1), RECORD_PAYLOAD_BYTES, 1));
            long dataEndBeforeFailure = paddedDataEnd(writes);

            channels.limitWritesTo(0); // the disk is full: the next flush fails and is rolled back
            log.append(301, LogFixtures.payload(301, RECORD_PAYLOAD_BYTES));
            assertThrows(IOException.class, log::flush);
            log.rollbackToDurable();
            channels.allowWrites();
            // The rollback cut the file at the durable data: past its last block there are holes again.
            writes.removeIf(write -> write.fromBytes() >= dataEndBeforeFailure);
            writes.replaceAll(write -> new Write(write.fromBytes(), Math.min(write.toBytes(), dataEndBeforeFailure),
                    write.allZeros()));
            int keptBeforeRestart = writes.size();

            written.addAll(appendAll(log, zxids(302, 300, 1), RECORD_PAYLOAD_BYTES, 1));
            assertTrue(writes.subList(keptBeforeRestart, writes.size()).stream().anyMatch(this::isZerosAhead),
                    "zeros were written again after the rollback");
        }
        assertZerosAheadOfTheDataAndAppendsOnWrittenBytes(writes);
        assertRecords(written, reopenAndReadAll(dir, options()));
    }

    @Test
    void heavyBatchesWriteNoZerosAhead() throws IOException {
        int recordsPerBatch = (ActiveSegment.LIGHT_BATCH_BYTES / RECORD_PAYLOAD_BYTES) + 8;
        List<LogRecord> written;
        try (TxnLog log = TxnLog.open(dir, options())) {
            written = appendAll(log, zxids(1, 20 * recordsPerBatch, 1), RECORD_PAYLOAD_BYTES, recordsPerBatch);
        }
        assertEquals(List.of(), writes.stream().filter(this::isZerosAhead).toList());
        assertRecords(written, reopenAndReadAll(dir, options()));
    }

    @Test
    void aFailedZeroWriteFailsNoFlushAndIsNotRepeated() throws IOException {
        List<Write> refused = new ArrayList<>();
        channels.hookWrites((file, positionBytes, bytes) -> {
            Write write = new Write(positionBytes, positionBytes + bytes.remaining(), allZeros(bytes));
            if (isZerosAhead(write)) {
                refused.add(write);
                throw new IOException("No space left on device");
            }
        });
        List<LogRecord> written;
        try (TxnLog log = TxnLog.open(dir, options())) {
            written = appendAll(log, zxids(1, 600, 1), RECORD_PAYLOAD_BYTES, 1);
        }
        assertEquals(1, refused.size(), "the segment stopped writing zeros after the first failure");
        assertRecords(written, reopenAndReadAll(dir, options()));
    }

    /**
     * Zeros go only past the block that ends the data so far, and once they have started, every
     * append lands on bytes an earlier write already put there (zeros or data), never on a hole.
     */
    private void assertZerosAheadOfTheDataAndAppendsOnWrittenBytes(List<Write> recorded) {
        long dataEndSoFar = 0;
        boolean zeroingStarted = false;
        List<Write> covered = new ArrayList<>();
        for (Write write : recorded) {
            if (isZerosAhead(write)) {
                assertEquals(0, write.fromBytes() % blockBytes, "zeros start at a block");
                assertTrue(write.fromBytes() >= dataEndSoFar,
                        "zeros at " + write.fromBytes() + " would overwrite the block ending the data at " + dataEndSoFar);
                zeroingStarted = true;
            } else if (!write.allZeros()) {
                if (zeroingStarted) {
                    assertTrue(isCovered(write, covered), "an append at " + write + " landed on a hole");
                }
                dataEndSoFar = Math.max(dataEndSoFar, write.toBytes());
            }
            covered.add(write);
        }
    }

    /** Where the data written so far ends, padded to its block. */
    private static long paddedDataEnd(List<Write> recorded) {
        return recorded.stream().filter(write -> !write.allZeros()).mapToLong(Write::toBytes).max().orElse(0);
    }

    /** Zeros ahead are longer than the one block of zeros a preallocation writes at the new end. */
    private boolean isZerosAhead(Write write) {
        return write.allZeros() && write.toBytes() - write.fromBytes() > blockBytes;
    }

    private static boolean isCovered(Write write, List<Write> earlier) {
        long from = write.fromBytes();
        boolean progressed = true;
        while (from < write.toBytes() && progressed) {
            progressed = false;
            for (Write before : earlier) {
                if (before.fromBytes() <= from && from < before.toBytes()) {
                    from = before.toBytes();
                    progressed = true;
                }
            }
        }
        return from >= write.toBytes();
    }

    private static boolean allZeros(ByteBuffer bytes) {
        for (int i = bytes.position(); i < bytes.limit(); i++) {
            if (bytes.get(i) != 0) {
                return false;
            }
        }
        return true;
    }

    private static boolean acceptsDirectIo(Path dir) {
        Path probe = dir.resolve("direct-io-probe");
        try (FileChannel channel = FileChannel.open(probe, Set.<OpenOption>of(StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE, DirectIo.OPTION))) {
            return true;
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        } finally {
            try {
                Files.deleteIfExists(probe);
            } catch (IOException ignored) {
                // only a probe
            }
        }
    }
}
