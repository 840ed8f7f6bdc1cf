package dev.warden.server.quorum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.server.net.ConnectionRegistry;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** When a member serves read-only sessions: after the grace period, only with a tree of commits. */
class ReadOnlyModeRulesTest {
    private final List<Runnable> due = new ArrayList<>();
    private final List<Long> delaysMs = new ArrayList<>();

    private ReadOnlyMode mode(boolean enabled, int tickTimeMs) {
        return new ReadOnlyMode(1, enabled, tickTimeMs, new ConnectionRegistry(0), (delayMs, task) -> {
            delaysMs.add(delayMs);
            due.add(task);
        });
    }

    private void graceOver() {
        List<Runnable> now = new ArrayList<>(due);
        due.clear();
        now.forEach(Runnable::run);
    }

    @Test
    void aMemberThatServedIsReadOnlyOnceTheGracePeriodPassesWhileItLooks() {
        ReadOnlyMode mode = mode(true, 200);
        mode.serving();
        mode.lookingStarted();
        assertFalse(mode.active(), "not before the grace period");
        assertEquals(List.of(2000L), delaysMs, "ZooKeeper's grace: at least 2 s");
        graceOver();
        assertTrue(mode.active());
        mode.end("found a leader");
        assertFalse(mode.active());
    }

    @Test
    void theGracePeriodIsATickWhenTheTickIsLonger() {
        ReadOnlyMode mode = mode(true, 3000);
        mode.serving();
        mode.lookingStarted();
        assertEquals(List.of(3000L), delaysMs);
    }

    @Test
    void aLeaderFoundWithinTheGracePeriodKeepsTheMemberOutOfReadOnlyMode() {
        ReadOnlyMode mode = mode(true, 200);
        mode.serving();
        mode.lookingStarted();
        mode.end("found a leader");
        graceOver();
        assertFalse(mode.active());
    }

    @Test
    void aMemberThatHasNotServedSinceItBuiltItsTreeFromItsLogServesNoOne() {
        ReadOnlyMode started = mode(true, 200);
        started.lookingStarted();
        graceOver();
        assertFalse(started.active(), "at start the tree may hold proposals never committed");

        ReadOnlyMode truncated = mode(true, 200);
        truncated.serving();
        truncated.treeRebuilt();
        truncated.lookingStarted();
        graceOver();
        assertFalse(truncated.active(), "rebuilt (TRUNC, SNAP) and not served since");
        truncated.serving();
        truncated.lookingStarted();
        graceOver();
        assertTrue(truncated.active());
    }

    @Test
    void rebuildingTheTreeEndsReadOnlyMode() {
        ReadOnlyMode mode = mode(true, 200);
        mode.serving();
        mode.lookingStarted();
        graceOver();
        mode.treeRebuilt();
        assertFalse(mode.active());
    }

    @Test
    void withoutReadOnlyModeEnabledNothingIsScheduled() {
        ReadOnlyMode mode = mode(false, 200);
        mode.serving();
        mode.lookingStarted();
        assertTrue(due.isEmpty());
        assertFalse(mode.active());
    }
}
