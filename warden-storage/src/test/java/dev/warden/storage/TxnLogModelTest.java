package dev.warden.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Random sequences of appends, flushes, rolls, truncations, purges, clean restarts and crashes,
 * checked against a list of the records that must be durable.
 */
class TxnLogModelTest {

    private static final TxnLogOptions OPTIONS = TxnLogOptions.defaults()
            .withPreallocateBytes(1024).withSegmentMaxBytes(512);

    @Property(tries = 100)
    void logAgreesWithASimpleModel(@ForAll @Size(max = 60) List<@IntRange(min = 0, max = 9) Integer> operations,
                                   @ForAll long seed) throws IOException {
        Path dir = Files.createTempDirectory("model");
        Random random = new Random(seed);
        List<LogRecord> durable = new ArrayList<>();
        List<LogRecord> pending = new ArrayList<>();
        long nextZxid = 1;
        long purgedUpTo = 0;
        TxnLog log = TxnLog.open(dir, OPTIONS);
        try {
            for (int operation : operations) {
                switch (operation) {
                    case 0, 1, 2, 3 -> {
                        int count = 1 + random.nextInt(8);
                        for (int i = 0; i < count; i++) {
                            nextZxid += 1 + random.nextInt(3);
                            LogRecord record = new LogRecord(nextZxid, LogFixtures.payload(nextZxid, random.nextInt(90)));
                            log.append(record.zxid(), record.payload());
                            pending.add(record);
                        }
                    }
                    case 4, 5 -> {
                        log.flush();
                        durable.addAll(pending);
                        pending.clear();
                    }
                    case 6 -> log.rollSegment();
                    case 7 -> {
                        long cut = random.nextInt((int) nextZxid + 1);
                        if (cut < purgedUpTo) {
                            break; // consensus never truncates below a snapshot it purged for
                        }
                        log.truncateAfter(cut);
                        durable.removeIf(record -> record.zxid() > cut);
                        pending.removeIf(record -> record.zxid() > cut);
                        nextZxid = Math.max(cut, last(durable, pending));
                    }
                    case 8 -> {
                        long upTo = purgePoint(log, durable, random);
                        log.purgeUpTo(upTo);
                        purgedUpTo = Math.max(purgedUpTo, upTo);
                    }
                    case 9 -> {
                        if (random.nextBoolean()) {
                            log.close(); // clean: flushes
                            durable.addAll(pending);
                        } else {
                            log.rollbackToDurable(); // crash: the buffer is lost
                            log.close();
                        }
                        pending.clear();
                        log = TxnLog.open(dir, OPTIONS);
                        nextZxid = Math.max(nextZxid, log.lastAppendedZxid());
                    }
                    default -> throw new IllegalStateException();
                }
                check(log, durable, pending, purgedUpTo);
            }
        } finally {
            log.close();
            deleteTree(dir);
        }
    }

    private static void check(TxnLog log, List<LogRecord> durable, List<LogRecord> pending, long purgedUpTo)
            throws IOException {
        assertEquals(last(durable, List.of()), log.lastDurableZxid());
        assertEquals(last(durable, pending), log.lastAppendedZxid());
        List<LogRecord> expected = LogFixtures.after(durable, purgedUpTo);
        assertEquals(expected, LogFixtures.readAll(log, purgedUpTo));
        List<LogRecord> all = LogFixtures.readAll(log, 0);
        assertTrue(all.size() >= expected.size());
        assertEquals(durable.subList(durable.size() - all.size(), durable.size()), all, "a suffix of the log");
    }

    /** Half the time just below a segment boundary, where an off-by-one would lose records. */
    private static long purgePoint(TxnLog log, List<LogRecord> durable, Random random) {
        List<Path> segments = log.segmentFiles();
        if (!segments.isEmpty() && random.nextBoolean()) {
            Path segment = segments.get(random.nextInt(segments.size()));
            return Math.max(0, SegmentFormat.firstZxidOf(segment).orElseThrow() - 1 - random.nextInt(2));
        }
        long lastDurable = last(durable, List.of());
        return lastDurable == 0 ? 0 : random.nextLong(lastDurable + 1);
    }

    private static long last(List<LogRecord> durable, List<LogRecord> pending) {
        if (!pending.isEmpty()) {
            return pending.get(pending.size() - 1).zxid();
        }
        return durable.isEmpty() ? 0 : durable.get(durable.size() - 1).zxid();
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
