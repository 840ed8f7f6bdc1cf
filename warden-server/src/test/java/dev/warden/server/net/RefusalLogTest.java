package dev.warden.server.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RefusalLogTest {
    private final AtomicLong nowMs = new AtomicLong(1_000);
    private final RefusalLog log = new RefusalLog(3, 60_000, nowMs::get);

    @Test
    void warnsUpToTheWindowsBudgetThenDemotesAndCountsTheRest() {
        assertEquals("a", log.warningFor("a"));
        assertEquals("b", log.warningFor("b"));
        nowMs.addAndGet(59_999);
        assertEquals("c", log.warningFor("c"));
        for (int i = 0; i < 500; i++) {
            assertNull(log.warningFor("flood " + i), "a stranger's connections past the budget stay out of WARN");
        }
        nowMs.addAndGet(1);
        assertEquals("d (500 refusals since the last WARN logged at DEBUG; at most 3 WARNs per 60 s)",
                log.warningFor("d"));
        assertEquals("e", log.warningFor("e"), "the count is given once");
        assertEquals("f", log.warningFor("f"));
        assertNull(log.warningFor("g"));
    }

    @Test
    void aQuietSpellStartsAFreshWindow() {
        for (int i = 0; i < 3; i++) {
            assertEquals("x", log.warningFor("x"));
        }
        assertNull(log.warningFor("x"));
        nowMs.addAndGet(3_600_000);
        assertEquals("y (1 refusal since the last WARN logged at DEBUG; at most 3 WARNs per 60 s)",
                log.warningFor("y"));
    }

    @Test
    void theBudgetMustAllowSomething() {
        assertThrows(IllegalArgumentException.class, () -> new RefusalLog(0, 1_000, nowMs::get));
        assertThrows(IllegalArgumentException.class, () -> new RefusalLog(1, 0, nowMs::get));
    }
}
