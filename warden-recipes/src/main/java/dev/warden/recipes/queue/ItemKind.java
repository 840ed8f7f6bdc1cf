package dev.warden.recipes.queue;

import java.util.Comparator;
import java.util.List;

/**
 * What distinguishes the queues for their consumers: the order items are served in, whether a
 * change of the items should drop a consumer's listing (a more urgent or earlier item may have
 * arrived), when an item becomes due, and what else goes when an item is completed.
 */
interface ItemKind {
    Comparator<String> order();

    boolean relistOnChange();

    /** Wall-clock ms from which the item may be served; 0 for at once. */
    default long dueAtMs(String name) {
        return 0;
    }

    default int priority(String name) {
        return 0;
    }

    /** Paths deleted with the item and its claim when it is completed. */
    default List<String> alsoDeletedOnCompletion(String queuePath, String name) {
        return List.of();
    }

    ItemKind FIFO = new ItemKind() {
        @Override
        public Comparator<String> order() {
            return ItemNames.order(false);
        }

        @Override
        public boolean relistOnChange() {
            return false;
        }
    };

    ItemKind PRIORITY = new ItemKind() {
        @Override
        public Comparator<String> order() {
            return ItemNames.order(true);
        }

        @Override
        public boolean relistOnChange() {
            return true;
        }

        @Override
        public int priority(String name) {
            return ItemNames.priority(name);
        }
    };
}
