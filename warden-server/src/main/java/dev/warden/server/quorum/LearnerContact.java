package dev.warden.server.quorum;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * A leader's account of the learners it is in touch with (heard from within syncLimit, the
 * rule by which the leader drops a learner's link), turned into lines when it changes: a
 * follower dropped, or one that joined or came back. Not thread-safe: the leader's session
 * check calls it on the driver thread.
 */
final class LearnerContact {
    private final long myId;
    private final Set<Long> voters;
    private final Set<Long> observers;
    private final long syncLimitMs;
    /** Learners in touch at the last update; null when not leading. */
    private Set<Long> inTouch;

    LearnerContact(long myId, Set<Long> voters, Set<Long> observers, long syncLimitMs) {
        this.myId = myId;
        this.voters = Set.copyOf(voters);
        this.observers = Set.copyOf(observers);
        this.syncLimitMs = syncLimitMs;
    }

    /** Leadership ended (or began afresh): the next update starts a new account, saying nothing. */
    void reset() {
        inTouch = null;
    }

    /**
     * The learners heard within syncLimit now; returns the lines to log, warnings first (each
     * with whether it is one).
     */
    List<Line> update(Set<Long> heardWithinSyncLimit) {
        Set<Long> now = new TreeSet<>();
        for (long id : heardWithinSyncLimit) {
            if (id != myId && (voters.contains(id) || observers.contains(id))) {
                now.add(id);
            }
        }
        List<Line> lines = new ArrayList<>();
        Set<Long> before = inTouch;
        inTouch = now;
        if (before == null) {
            return lines;
        }
        int votersInTouch = 1 + (int) now.stream().filter(voters::contains).count(); // the leader counts itself
        for (long id : before) {
            if (!now.contains(id)) {
                lines.add(new Line(true, "member " + myId + ": lost " + kind(id) + " " + id + ": nothing heard from it"
                        + " for more than syncLimit (" + syncLimitMs + " ms); " + votersInTouch + " of "
                        + voters.size() + " voters in touch, " + (voters.size() / 2 + 1) + " needed"));
            }
        }
        for (long id : now) {
            if (!before.contains(id)) {
                lines.add(new Line(false, "member " + myId + ": " + kind(id) + " " + id + " is in touch; "
                        + votersInTouch + " of " + voters.size() + " voters in touch"));
            }
        }
        return lines;
    }

    private String kind(long id) {
        return observers.contains(id) ? "observer" : "follower";
    }

    /** One line to log; {@code warning} for a learner lost. */
    record Line(boolean warning, String text) {
    }
}
