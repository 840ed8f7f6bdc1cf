package dev.warden.storage;

import static dev.warden.storage.LogFixtures.appendAll;
import static dev.warden.storage.LogFixtures.payload;
import static dev.warden.storage.LogFixtures.zxids;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A roll gives back the old segment's preallocated space outside the log's lock: flushes go on
 * meanwhile, and anything that would touch the old segment's file waits for it.
 */
class SegmentRollTest {
    private static final long PREALLOCATE_BYTES = 1 << 16;

    @TempDir
    Path dir;

    private final FaultInjectingChannels disk = new FaultInjectingChannels();
    private final CountDownLatch retireEntered = new CountDownLatch(1);
    private final CountDownLatch retireMayGoOn = new CountDownLatch(1);

    private TxnLogOptions options() {
        return TxnLogOptions.defaults().withPreallocateBytes(PREALLOCATE_BYTES).withChannels(disk);
    }

    /** Holds the first truncation of segment 1 (the roll's) until the test lets it go on. */
    private void holdTheFirstSegmentsTruncation() {
        Path first = dir.resolve(SegmentFormat.fileName(1));
        disk.hookTruncates((file, sizeBytes) -> {
            if (file.equals(first) && retireEntered.getCount() > 0) {
                retireEntered.countDown();
                try {
                    retireMayGoOn.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted", e);
                }
            }
        });
    }

    /** Starts a roll on another thread and returns once it is held in the old segment's truncate. */
    private CompletableFuture<Void> rollHeldAtTheGiveBack(TxnLog log) throws InterruptedException {
        holdTheFirstSegmentsTruncation();
        CompletableFuture<Void> roll = inBackground(log::rollSegment);
        assertTrue(retireEntered.await(5, TimeUnit.SECONDS));
        return roll;
    }

    private interface LogAction {
        void run() throws IOException;
    }

    private static CompletableFuture<Void> inBackground(LogAction action) {
        return CompletableFuture.runAsync(() -> {
            try {
                action.run();
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
    }

    @Test
    void flushesGoOnWhileTheRolledSegmentIsGivenBack() throws Exception {
        try (TxnLog log = TxnLog.open(dir, options())) {
            appendAll(log, zxids(1, 10, 1), 10, 10);
            CompletableFuture<Void> roll = rollHeldAtTheGiveBack(log);

            CompletableFuture<Void> flush = inBackground(() -> {
                log.append(11, payload(11, 10));
                log.flush();
            });
            try {
                flush.get(5, TimeUnit.SECONDS);
                assertFalse(roll.isDone(), "the old segment is still being given back");
            } finally {
                // On failure too, or closing the log would wait for the held roll forever.
                retireMayGoOn.countDown();
            }
            assertEquals(11, log.lastDurableZxid());
            roll.get(5, TimeUnit.SECONDS);
            assertEquals(List.of(dir.resolve(SegmentFormat.fileName(1)), dir.resolve(SegmentFormat.fileName(11))),
                    log.segmentFiles());
        }
        assertTrue(Files.size(dir.resolve(SegmentFormat.fileName(1))) < PREALLOCATE_BYTES,
                "the rolled segment gave back its preallocation");
        try (TxnLog reopened = TxnLog.open(dir, options())) {
            assertEquals(11, LogFixtures.readAll(reopened, 0).size());
        }
    }

    @Test
    void truncatingIntoTheRolledSegmentWaitsUntilItIsGivenBack() throws Exception {
        try (TxnLog log = TxnLog.open(dir, options())) {
            appendAll(log, zxids(1, 10, 1), 10, 10);
            CompletableFuture<Void> roll = rollHeldAtTheGiveBack(log);

            // A new leader tells this member to drop zxids 6-10, which live in the rolled segment.
            CompletableFuture<Void> truncate = inBackground(() -> log.truncateAfter(5));
            try {
                Thread.sleep(200);
                assertFalse(truncate.isDone(), "the truncation waits for the roll to finish with the file");
            } finally {
                retireMayGoOn.countDown();
            }
            roll.get(5, TimeUnit.SECONDS);
            truncate.get(5, TimeUnit.SECONDS);

            // Records longer than the ones cut off: a late give-back would cut them short.
            appendAll(log, zxids(6, 10, 1), 200, 10);
            assertEquals(15, log.lastDurableZxid());
        }
        try (TxnLog reopened = TxnLog.open(dir, options())) {
            List<LogRecord> records = LogFixtures.readAll(reopened, 0);
            assertEquals(15, records.size());
            assertEquals(15, records.get(14).zxid());
            assertEquals(List.of(dir.resolve(SegmentFormat.fileName(1))), reopened.segmentFiles());
        }
    }

    @Test
    void aRolledSegmentLeftWithItsZeroTailIsAcceptedOnReopen() throws Exception {
        Path first = dir.resolve(SegmentFormat.fileName(1));
        try (TxnLog log = TxnLog.open(dir, options())) {
            appendAll(log, zxids(1, 10, 1), 10, 10);
            // As if the member crashed before the give-back: the old segment keeps its zero tail.
            disk.hookTruncates((file, sizeBytes) -> {
                if (file.equals(first)) {
                    throw new IOException("simulated crash before the give-back");
                }
            });
            assertThrows(IOException.class, log::rollSegment);
            appendAll(log, zxids(11, 10, 1), 10, 10);
        }
        assertEquals(PREALLOCATE_BYTES, Files.size(first), "the zero tail is still there");
        try (TxnLog reopened = TxnLog.open(dir, options())) {
            assertEquals(20, LogFixtures.readAll(reopened, 0).size());
            appendAll(reopened, zxids(21, 5, 1), 10, 5);
            assertEquals(25, LogFixtures.readAll(reopened, 0).size());
        }
    }
}
