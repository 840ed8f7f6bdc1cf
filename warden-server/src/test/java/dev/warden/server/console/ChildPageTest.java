package dev.warden.server.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ChildPageTest {
    @Test
    void pagingThroughEveryChildGivesThemAllOnceInOrder() {
        Random random = new Random(7);
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            names.add(Integer.toString(random.nextInt(1_000_000), 36) + "-" + i);
        }
        List<String> seen = new ArrayList<>();
        String after = null;
        do {
            ChildPage page = ChildPage.of(names, after, "", 333);
            assertEquals(5_000, page.matching());
            seen.addAll(page.names());
            after = page.next();
        } while (after != null);
        List<String> sorted = new ArrayList<>(names);
        Collections.sort(sorted);
        assertEquals(sorted, seen);
    }

    @Test
    void aPrefixFiltersAndCounts() {
        ChildPage page = ChildPage.of(List.of("lock-2", "config", "lock-1", "lock-3"), "lock-1", "lock-", 1);
        assertEquals(List.of("lock-2"), page.names());
        assertEquals(3, page.matching());
        assertEquals("lock-2", page.next());
        ChildPage last = ChildPage.of(List.of("lock-2", "config", "lock-1", "lock-3"), "lock-2", "lock-", 1);
        assertEquals(List.of("lock-3"), last.names());
        assertNull(last.next());
    }

    @Test
    void aLimitOutsideOneTo500IsRefused() {
        assertThrows(IllegalArgumentException.class, () -> ChildPage.of(List.of(), null, "", 0));
        assertThrows(IllegalArgumentException.class, () -> ChildPage.of(List.of(), null, "", 501));
    }
}
