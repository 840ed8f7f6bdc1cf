package dev.warden.server.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.consensus.Entry;
import dev.warden.consensus.Zxid;
import dev.warden.storage.TxnLog;
import dev.warden.storage.TxnLogOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Checks the view against a plain sorted map of what was logged, over several cache sizes. */
class TxnLogViewTest {
    @TempDir
    Path dir;

    private static TxnLogOptions small() {
        return TxnLogOptions.defaults().withForceSync(false).withPreallocateBytes(4096).withSegmentMaxBytes(2048);
    }

    /** Zxids over three epochs with gaps, as a real history has. */
    private static List<Entry> history(int perEpoch) {
        List<Entry> entries = new ArrayList<>();
        for (long epoch = 1; epoch <= 3; epoch++) {
            for (long counter = 1; counter <= perEpoch; counter++) {
                long zxid = Zxid.of(epoch, counter * 2);
                entries.add(new Entry(zxid, ("e" + zxid + "-".repeat(60)).getBytes()));
            }
        }
        return entries;
    }

    @Test
    void answersLikeASortedMapWithAndWithoutTheCache() throws IOException {
        for (int cacheEntries : new int[] {0, 7, 100_000}) {
            Path logDir = dir.resolve("c" + cacheEntries);
            try (TxnLog log = TxnLog.open(logDir, small())) {
                TxnLogView view = new TxnLogView(log, 0, cacheEntries, 1 << 20);
                TreeMap<Long, Entry> model = new TreeMap<>();
                List<Entry> all = history(40);
                persistInBatches(view, all);
                all.forEach(e -> model.put(e.zxid(), e));
                assertTrue(log.segmentRanges().size() > 3, "several segments");
                compare(view, model, 0);
            }
        }
    }

    /**
     * A scan (a leader reading a follower's diff) reads a segment once however many entries it
     * holds, stops when told, and hands out what {@link TxnLogView#read} would.
     */
    @Test
    void aScanReadsEachSegmentOnceAndStopsWhenTold() throws IOException {
        java.util.concurrent.atomic.AtomicInteger segmentOpens = new java.util.concurrent.atomic.AtomicInteger();
        TxnLogOptions counting = TxnLogOptions.defaults().withForceSync(false).withChannels((path, options) -> {
            if (options.equals(java.util.Set.of(java.nio.file.StandardOpenOption.READ))) {
                segmentOpens.incrementAndGet();
            }
            return java.nio.channels.FileChannel.open(path, options);
        });
        try (TxnLog log = TxnLog.open(dir, counting)) {
            TxnLogView view = new TxnLogView(log, 0, 10, 1 << 20);
            List<Entry> all = new ArrayList<>();
            for (long counter = 1; counter <= 3 * dev.warden.consensus.LogView.SCAN_CHUNK_ENTRIES; counter++) {
                all.add(new Entry(Zxid.of(1, counter), ("v" + counter).getBytes()));
            }
            view.persist(all);
            assertEquals(1, log.segmentRanges().size(), "one segment");

            segmentOpens.set(0);
            List<Long> scanned = new ArrayList<>();
            view.scan(0, view.lastZxid(), entry -> scanned.add(entry.zxid()));
            assertEquals(all.stream().map(Entry::zxid).toList(), scanned);
            assertEquals(1, segmentOpens.get(), "segment opened for the scan");

            List<Long> firstFive = new ArrayList<>();
            long from = all.get(100).zxid();
            view.scan(from, view.lastZxid(), entry -> firstFive.add(entry.zxid()) && firstFive.size() < 5);
            assertEquals(all.subList(101, 106).stream().map(Entry::zxid).toList(), firstFive);
            List<Long> bounded = new ArrayList<>();
            view.scan(from, all.get(110).zxid(), entry -> bounded.add(entry.zxid()));
            assertEquals(view.read(from, all.get(110).zxid(), 100).stream().map(Entry::zxid).toList(), bounded);
        }
    }

    @Test
    void reopenedViewStartsFromItsBaseAndReadsOldEntriesFromDisk() throws IOException {
        List<Entry> all = history(30);
        try (TxnLog log = TxnLog.open(dir, small())) {
            persistInBatches(new TxnLogView(log, 0), all);
        }
        try (TxnLog log = TxnLog.open(dir, small())) {
            long base = all.get(40).zxid();
            TxnLogView view = new TxnLogView(log, base);
            // The log reaches back before the snapshot; what came before its first entry is unknown.
            TreeMap<Long, Entry> model = new TreeMap<>();
            all.forEach(e -> model.put(e.zxid(), e));
            compare(view, model, all.get(0).zxid());
        }
        try (TxnLog log = TxnLog.open(dir, small())) {
            assertEquals(0, new TxnLogView(log, 0).firstReadableZxid());
        }
    }

    @Test
    void truncateThenAppendKeepsTheViewConsistent() throws IOException {
        try (TxnLog log = TxnLog.open(dir, small())) {
            TxnLogView view = new TxnLogView(log, 0, 20, 1 << 20);
            List<Entry> all = history(30);
            persistInBatches(view, all);
            long cut = all.get(50).zxid() + 1; // between two entries
            view.truncateAfter(cut);
            TreeMap<Long, Entry> model = new TreeMap<>();
            all.subList(0, 51).forEach(e -> model.put(e.zxid(), e));
            assertEquals(all.get(50).zxid(), view.lastZxid());
            compare(view, model, 0);
            List<Entry> fresh = List.of(new Entry(Zxid.of(9, 1), new byte[] {1}), new Entry(Zxid.of(9, 2), new byte[] {2}));
            view.persist(fresh);
            fresh.forEach(e -> model.put(e.zxid(), e));
            compare(view, model, 0);
        }
    }

    @Test
    void restartAfterASnapLeavesOnlyTheSnapshotPoint() throws IOException {
        try (TxnLog log = TxnLog.open(dir, small())) {
            TxnLogView view = new TxnLogView(log, 0);
            view.persist(history(10));
            long snap = Zxid.of(7, 5);
            view.restartAfter(snap);
            assertEquals(snap, view.lastZxid());
            assertEquals(snap, view.firstReadableZxid());
            assertFalse(view.contains(snap));
            assertEquals(snap, view.floor(Zxid.of(8, 0)));
            assertEquals(List.of(), view.read(snap, Long.MAX_VALUE, 10));
            assertThrows(IllegalArgumentException.class, () -> view.read(snap - 1, Long.MAX_VALUE, 10));
            Entry next = new Entry(Zxid.of(7, 9), new byte[0]);
            view.persist(List.of(next));
            assertEquals(List.of(next), view.read(snap, Long.MAX_VALUE, 10));
        }
    }

    @Test
    void purgeMovesTheReadableStart() throws IOException {
        try (TxnLog log = TxnLog.open(dir, small())) {
            TxnLogView view = new TxnLogView(log, 0, 0, 0);
            List<Entry> all = history(40);
            persistInBatches(view, all);
            long snapshot = all.get(100).zxid();
            view.purgeUpTo(snapshot);
            long first = view.firstReadableZxid();
            assertTrue(first > 0 && first <= snapshot, "readable from " + Zxid.hex(first));
            TreeMap<Long, Entry> model = new TreeMap<>();
            all.stream().filter(e -> e.zxid() >= first).forEach(e -> model.put(e.zxid(), e));
            compare(view, model, first);
        }
    }

    /** One flush per few entries, so the small segments roll often. */
    private static void persistInBatches(TxnLogView view, List<Entry> entries) throws IOException {
        for (int i = 0; i < entries.size(); i += 7) {
            view.persist(entries.subList(i, Math.min(entries.size(), i + 7)));
        }
    }

    /** Random and boundary probes against the model; {@code readableFrom} is the expected start. */
    private static void compare(TxnLogView view, TreeMap<Long, Entry> model, long readableFrom) {
        assertEquals(readableFrom, view.firstReadableZxid());
        assertEquals(model.isEmpty() ? readableFrom : model.lastKey(), view.lastZxid());
        Random random = new Random(1);
        List<Long> probes = new ArrayList<>();
        for (long zxid : model.keySet()) {
            probes.add(zxid);
            probes.add(zxid + 1);
            probes.add(zxid - 1);
        }
        for (int i = 0; i < 50; i++) {
            probes.add(Zxid.of(random.nextInt(11), random.nextInt(100)));
        }
        for (long probe : probes) {
            boolean expectContains = probe >= readableFrom && model.containsKey(probe);
            assertEquals(expectContains, view.contains(probe), "contains " + Zxid.hex(probe));
            Long floor = model.floorKey(probe);
            long expectFloor = floor == null || floor < readableFrom ? readableFrom : floor;
            assertEquals(expectFloor, view.floor(probe), "floor " + Zxid.hex(probe));
            if (probe >= readableFrom) {
                long upTo = probe + random.nextInt(40);
                int max = 1 + random.nextInt(30);
                List<Long> expected = model.subMap(probe, false, upTo, true).keySet().stream().limit(max).toList();
                List<Entry> read = view.read(probe, upTo, max);
                assertEquals(expected, read.stream().map(Entry::zxid).toList(), "read after " + Zxid.hex(probe));
                for (Entry entry : read) {
                    assertEquals(new String(model.get(entry.zxid()).payload()), new String(entry.payload()));
                }
            }
        }
    }
}
