package dev.warden.recipes.queue;

import dev.warden.recipes.support.SequenceSuffix;
import java.util.Comparator;

/**
 * Item node names: {@code item-<seq>} in a FIFO queue, {@code item-<ppp>-<seq>} with a
 * three-digit priority in a priority queue (lower first, like Unix nice values). Offers use
 * protected creates, so a name may carry a {@code _p_<uuid>-} prefix; only the ends count.
 */
final class ItemNames {
    static final String PREFIX = "item-";
    static final int MAX_PRIORITY = 999;
    private static final int SEQUENCE_DIGITS = 10;

    private ItemNames() {
    }

    static String prefix(int priority, boolean prioritized) {
        if (!prioritized) {
            return PREFIX;
        }
        if (priority < 0 || priority > MAX_PRIORITY) {
            throw new IllegalArgumentException("priority must be 0.." + MAX_PRIORITY + ", got " + priority);
        }
        return PREFIX + String.format("%03d", priority) + "-";
    }

    static boolean isItem(String name) {
        return name.contains(PREFIX) && SequenceSuffix.has(name);
    }

    static long sequence(String name) {
        return SequenceSuffix.of(name);
    }

    /** The priority in a priority queue's item name; 0 where there is none. */
    static int priority(String name) {
        int end = name.length() - SEQUENCE_DIGITS - 1;
        int start = end - 3;
        if (start < PREFIX.length() || name.charAt(end) != '-' || !name.startsWith(PREFIX, start - PREFIX.length())) {
            return 0;
        }
        return Integer.parseInt(name.substring(start, end));
    }

    static Comparator<String> order(boolean prioritized) {
        Comparator<String> bySequence = Comparator.comparingLong(ItemNames::sequence);
        return prioritized ? Comparator.comparingInt(ItemNames::priority).thenComparing(bySequence) : bySequence;
    }
}
