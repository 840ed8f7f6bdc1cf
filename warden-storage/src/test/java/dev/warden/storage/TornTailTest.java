package dev.warden.storage;

import static dev.warden.storage.LogFixtures.appendAll;
import static dev.warden.storage.LogFixtures.assertRecords;
import static dev.warden.storage.LogFixtures.payload;
import static dev.warden.storage.LogFixtures.readAll;
import static dev.warden.storage.LogFixtures.reopenAndReadAll;
import static dev.warden.storage.LogFixtures.zxids;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A write that never completed its flush must vanish on open, whatever it left behind. */
class TornTailTest {

    private static final TxnLogOptions NO_PREALLOCATION = TxnLogOptions.defaults().withPreallocateBytes(0);

    @TempDir
    Path dir;

    @Test
    void lastRecordCutAtEveryByteIsDroppedWhetherTruncatedOrZeroFilled() throws IOException {
        List<LogRecord> written;
        try (TxnLog log = TxnLog.open(dir, NO_PREALLOCATION)) {
            written = appendAll(log, zxids(1, 10, 1), 45, 3);
        }
        Path segment = dir.resolve(SegmentFormat.fileName(1));
        // Direct I/O pads the file to a whole block with zeros; the test cuts within the data.
        int dataEndBytes = SegmentFormat.HEADER_BYTES;
        for (LogRecord record : written) {
            dataEndBytes += (int) SegmentFormat.recordBytes(record.payload().length);
        }
        byte[] whole = Arrays.copyOf(Files.readAllBytes(segment), dataEndBytes);
        int lastRecordStart = whole.length - (int) SegmentFormat.recordBytes(written.get(9).payload().length);
        List<LogRecord> survivors = written.subList(0, 9);
        for (int cut = lastRecordStart; cut < whole.length; cut++) {
            for (boolean zeroFill : new boolean[] {false, true}) {
                byte[] damaged = Arrays.copyOf(whole, zeroFill ? whole.length + 4096 : cut);
                Arrays.fill(damaged, cut, damaged.length, (byte) 0);
                Files.write(segment, damaged);
                try (TxnLog log = TxnLog.open(dir, NO_PREALLOCATION)) {
                    String where = "cut at " + cut + (zeroFill ? " then zeros" : "");
                    assertEquals(survivors, readAll(log, 0), where);
                    assertEquals(9, log.lastDurableZxid(), where);
                    log.append(10, payload(100, 7));
                }
                List<LogRecord> expected = new ArrayList<>(survivors);
                expected.add(new LogRecord(10, payload(100, 7)));
                assertRecords(expected, reopenAndReadAll(dir, NO_PREALLOCATION));
            }
        }
    }

    @Test
    void unwrittenNewestSegmentIsDeleted() throws IOException {
        List<LogRecord> written;
        try (TxnLog log = TxnLog.open(dir, NO_PREALLOCATION)) {
            written = appendAll(log, zxids(1, 5, 1), 10, 5);
        }
        // A crash right after creating the next segment: the file exists but holds nothing,
        // or only its header.
        for (byte[] content : List.of(new byte[64], new byte[0], SegmentFormat.header(6, 5).array())) {
            Path unwritten = dir.resolve(SegmentFormat.fileName(6));
            Files.write(unwritten, content);
            try (TxnLog log = TxnLog.open(dir, NO_PREALLOCATION)) {
                assertRecords(written, readAll(log, 0));
                assertEquals(List.of(dir.resolve(SegmentFormat.fileName(1))), log.segmentFiles());
            }
            assertEquals(false, Files.exists(unwritten));
        }
    }

    /**
     * Random records, the last one cut at a random point, followed by random garbage and then
     * zeros up to the preallocated size: open keeps exactly the records before the torn one.
     */
    @Property(tries = 60)
    void tornTailWithGarbageIsCutAtTheLastWholeRecord(@ForAll @IntRange(min = 1, max = 30) int records,
                                                      @ForAll @IntRange(min = 0, max = 300) int payloadBytes,
                                                      @ForAll @IntRange(min = 0, max = 10_000) int cutPermille,
                                                      @ForAll @IntRange(min = 0, max = 200) int garbageBytes,
                                                      @ForAll long seed) throws IOException {
        Path tmp = Files.createTempDirectory("torn");
        try {
            TxnLogOptions options = TxnLogOptions.defaults().withPreallocateBytes(8192);
            List<LogRecord> written;
            try (TxnLog log = TxnLog.open(tmp, options)) {
                written = appendAll(log, zxids(1, records, 2), payloadBytes, 4);
            }
            Path segment = tmp.resolve(SegmentFormat.fileName(1));
            byte[] bytes = Files.readAllBytes(segment);
            long dataEnd = SegmentFormat.HEADER_BYTES + written.stream()
                    .mapToLong(r -> SegmentFormat.recordBytes(r.payload().length)).sum();
            long lastStart = dataEnd - SegmentFormat.recordBytes(written.get(records - 1).payload().length);
            int cut = (int) (lastStart + (dataEnd - lastStart) * cutPermille / 10_000);
            byte[] original = bytes.clone();
            Random random = new Random(seed);
            for (int i = cut; i < bytes.length; i++) {
                bytes[i] = i < cut + garbageBytes ? (byte) (random.nextInt(255) + 1) : 0;
            }
            Files.write(segment, bytes);
            // The garbage and zeros may happen to rewrite the last record's tail with the bytes it
            // already had (a zero over a zero, a random byte equal to the old one): then it is whole.
            boolean lastRecordIntact = Arrays.equals(original, cut, (int) dataEnd, bytes, cut, (int) dataEnd);
            List<LogRecord> expected = lastRecordIntact ? written : written.subList(0, records - 1);
            assertRecords(expected, reopenAndReadAll(tmp, options));
        } finally {
            deleteTree(tmp);
        }
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.delete(path);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
