package dev.warden.state.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.state.common.ManualClock;
import java.util.List;
import org.junit.jupiter.api.Test;

class SessionTrackerTest {
    private final ManualClock clock = new ManualClock(1_000_000);
    private final SessionTracker tracker = new SessionTracker(clock, 100, 1);

    @Test
    void sessionIdsCarryTheServerIdInTheTopByte() {
        long id = tracker.newSessionId();
        assertEquals(1, id >>> 56);
        assertEquals(id + 1, tracker.newSessionId());
    }

    @Test
    void localSessionsExpireApartAndStayOutOfSnapshotsAndActivityReports() {
        tracker.add(7, 1000, new byte[16]);
        tracker.addLocal(8, 1000, new byte[16]);
        tracker.recordActivity(true);
        assertTrue(tracker.touch(8));
        assertTrue(tracker.touch(7));
        assertEquals(List.of(7L), tracker.drainActive(), "the leader never hears of a local session");
        assertEquals(List.of(7L), tracker.sessions().stream().map(SessionTracker.Session::id).toList());
        assertEquals(1, tracker.size());
        assertEquals(1, tracker.localCount());
        clock.advance(1100);
        assertEquals(List.of(7L), tracker.takeExpired(), "the leader's expiry takes global sessions only");
        assertEquals(List.of(8L), tracker.takeExpiredLocal(), "the member's own check takes its local ones");
        tracker.remove(8);
        assertEquals(0, tracker.localCount());
    }

    @Test
    void applyingACreateSessionForALocalSessionMakesItGlobalOnce() {
        tracker.addLocal(8, 1000, new byte[16]);
        assertTrue(tracker.isLocal(8));
        assertTrue(tracker.startUpgrade(8));
        assertFalse(tracker.startUpgrade(8), "one createSession goes to the leader");
        tracker.add(8, 1000, new byte[16]);
        assertFalse(tracker.isLocal(8));
        assertFalse(tracker.startUpgrade(8));
        assertEquals(0, tracker.localCount());
        assertEquals(1, tracker.size());
        clock.advance(1100);
        assertEquals(List.of(), tracker.takeExpiredLocal());
        assertEquals(List.of(8L), tracker.takeExpired(), "now the leader expires it");
    }

    @Test
    void idleSessionExpiresWithinOneTickAfterItsTimeout() {
        tracker.add(7, 1000, new byte[16]);
        clock.advance(999);
        assertEquals(List.of(), tracker.takeExpired());
        clock.advance(101);
        assertEquals(List.of(7L), tracker.takeExpired());
        assertEquals(List.of(), tracker.takeExpired(), "expired sessions are handed out once");
        assertFalse(tracker.isActive(7), "an expired session is closing until its close is applied");
    }

    @Test
    void touchPushesExpiryOut() {
        tracker.add(7, 1000, new byte[16]);
        for (int i = 0; i < 20; i++) {
            clock.advance(500);
            assertTrue(tracker.touch(7));
            assertEquals(List.of(), tracker.takeExpired());
        }
        clock.advance(1200);
        assertEquals(List.of(7L), tracker.takeExpired());
    }

    @Test
    void closingSessionsAreNotTouchedAndCanBeRestored() {
        tracker.add(7, 1000, new byte[16]);
        tracker.markClosing(7);
        assertFalse(tracker.touch(7));
        clock.advance(5000);
        assertEquals(List.of(), tracker.takeExpired());
        tracker.clearClosing(7);
        assertTrue(tracker.isActive(7));
        clock.advance(1200);
        assertEquals(List.of(7L), tracker.takeExpired());
    }

    @Test
    void touchAllOpenGivesEveryOpenSessionAFreshTimeoutAndLeavesClosingOnesClosing() {
        tracker.add(7, 1000, new byte[16]);
        tracker.add(8, 1000, new byte[16]);
        tracker.markClosing(8);
        clock.advance(5000); // the expirer stood still past every timeout
        tracker.touchAllOpen();
        assertEquals(List.of(), tracker.takeExpired());
        assertFalse(tracker.isActive(8));
        clock.advance(1200);
        assertEquals(List.of(7L), tracker.takeExpired());
    }

    @Test
    void passwordIsCheckedInConstantTimeAndExactly() {
        byte[] password = new byte[16];
        password[3] = 9;
        tracker.add(7, 1000, password);
        assertTrue(tracker.get(7).passwordMatches(password.clone()));
        assertFalse(tracker.get(7).passwordMatches(new byte[16]));
        assertFalse(tracker.get(7).passwordMatches(null));
    }
}
