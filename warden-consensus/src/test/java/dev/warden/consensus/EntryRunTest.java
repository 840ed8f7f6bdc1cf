package dev.warden.consensus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** An {@link EntryRun} answers every question as a sorted map of the same entries would. */
class EntryRunTest {
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void answersAsASortedMapOfTheSameEntries(long seed) {
        Random random = new Random(seed);
        EntryRun run = new EntryRun();
        TreeMap<Long, Entry> model = new TreeMap<>();
        long next = Zxid.of(1, 1);
        for (int step = 0; step < 20_000; step++) {
            int action = random.nextInt(100);
            if (action < 55) {
                next += 1 + (random.nextInt(10) == 0 ? random.nextInt(5) : 0); // gaps, as across an epoch
                Entry entry = new Entry(next, new byte[] {(byte) step});
                run.append(entry);
                model.put(next, entry);
            } else if (action < 70) {
                long upTo = probe(random, model, next);
                List<Entry> taken = run.takeUpTo(upTo);
                List<Entry> expected = new ArrayList<>(model.headMap(upTo, true).values());
                model.headMap(upTo, true).clear();
                assertEquals(expected, taken);
            } else if (action < 78) {
                long upTo = probe(random, model, next);
                run.dropUpTo(upTo);
                model.headMap(upTo, true).clear();
            } else if (action < 79) {
                run.clear();
                model.clear();
            } else if (action < 83) {
                Map.Entry<Long, Entry> first = model.pollFirstEntry();
                assertEquals(first == null ? null : first.getValue(), run.pollFirst());
            } else if (action < 85) {
                long after = probe(random, model, next);
                List<Entry> expected = new ArrayList<>(model.tailMap(after, false).values());
                model.tailMap(after, false).clear();
                assertEquals(expected, run.takeAfter(after));
                next = Math.max(after, model.isEmpty() ? after : model.lastKey()); // a log cut back grows from there
            } else {
                long zxid = probe(random, model, next);
                long other = probe(random, model, next);
                assertEquals(model.containsKey(zxid), run.contains(zxid));
                Long floor = model.floorKey(zxid);
                assertEquals(floor == null ? -1 : floor, run.floorZxid(zxid));
                Long lower = model.lowerKey(zxid);
                assertEquals(lower == null ? -1 : lower, run.lowerZxid(zxid));
                List<Entry> between = zxid >= other ? List.of()
                        : new ArrayList<>(model.subMap(zxid, false, other, true).values());
                assertEquals(between, run.between(zxid, other));
            }
            assertEquals(model.size(), run.size());
        }
    }

    @Test
    void refusesAnEntryThatDoesNotFollowTheLast() {
        EntryRun run = new EntryRun();
        run.append(new Entry(5, new byte[0]));
        assertThrows(IllegalStateException.class, () -> run.append(new Entry(5, new byte[0])));
        assertThrows(IllegalStateException.class, () -> run.append(new Entry(4, new byte[0])));
        assertEquals(1, run.size());
    }

    /** A zxid to ask about: one held, one between or beyond those held, or one below them all. */
    private static long probe(Random random, TreeMap<Long, Entry> model, long next) {
        if (!model.isEmpty() && random.nextBoolean()) {
            long low = model.firstKey();
            return low + random.nextInt((int) Math.min(Integer.MAX_VALUE, model.lastKey() - low + 1));
        }
        return random.nextInt(3) == 0 ? random.nextInt(5) : next - random.nextInt(50) + random.nextInt(5);
    }
}
