package dev.warden.server.quorum;

import dev.warden.server.net.ConnectionRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * ZooKeeper's read-only mode (readonlymode.enabled): a member that has been looking for a
 * leader for a grace period serves clients that asked for read-only sessions, from the tree it
 * has, until it finds a leader again; then those sessions' connections are closed so their
 * clients reconnect read-write.
 *
 * <p>It serves only a tree made of committed transactions: one the member reached by applying
 * what a leader committed while it was in service. A member that has not served since it last
 * rebuilt its tree from its own log (at start, after a TRUNC or a snapshot from the leader)
 * may hold proposals that were never committed, and serves no one until it has served again.
 *
 * <p>Role changes arrive on the driver thread, the grace timer fires on the timer thread and
 * client connections read {@link #active()} on the network threads; the methods that change
 * the mode are synchronized and {@link #active()} is a volatile read.
 */
final class ReadOnlyMode {
    private static final Logger log = LoggerFactory.getLogger(ReadOnlyMode.class);
    /** ZooKeeper waits at least this long before it decides it is cut off. */
    static final long MIN_GRACE_MS = 2000;

    private final long myId;
    private final boolean enabled;
    private final long graceMs;
    private final ConnectionRegistry registry;
    private final Timer timer;
    private volatile boolean active;
    /** True while the tree holds only what a leader committed (see the class comment). */
    private boolean treeCommittedOnly;
    /** Counts each start and end of looking: a grace timer of an earlier spell of looking does nothing. */
    private long spell;

    /** Runs a task once after a delay (the member's timer thread). */
    @FunctionalInterface
    interface Timer {
        void after(long delayMs, Runnable task);
    }

    ReadOnlyMode(long myId, boolean enabled, int tickTimeMs, ConnectionRegistry registry, Timer timer) {
        this.myId = myId;
        this.timer = timer;
        this.enabled = enabled;
        this.graceMs = Math.max(MIN_GRACE_MS, tickTimeMs);
        this.registry = registry;
    }

    /** True while read-only sessions are served. */
    boolean active() {
        return active;
    }

    /** The member serves clients read-write: its tree now holds committed transactions only. */
    synchronized void serving() {
        treeCommittedOnly = true;
        endLocked("it serves read-write again");
    }

    /**
     * The member started looking for a leader: after the grace period, if it is still looking and
     * its tree holds committed transactions only, read-only sessions are served.
     */
    synchronized void lookingStarted() {
        endLocked("it is looking for a leader again");
        if (!enabled) {
            return;
        }
        long mySpell = spell;
        timer.after(graceMs, () -> graceOver(mySpell));
    }

    private synchronized void graceOver(long thatSpell) {
        if (thatSpell != spell || active) {
            return;
        }
        if (!treeCommittedOnly) {
            log.warn("member {}: no leader for {} ms, but it serves no read-only sessions: it has not served since"
                    + " it last built its tree from its log, which may hold proposals never committed", myId, graceMs);
            return;
        }
        active = true;
        log.info("member {}: no leader for {} ms; serving read-only sessions (readonlymode.enabled)", myId, graceMs);
    }

    /** The member found a leader (or stopped): read-only service ends and its connections close. */
    synchronized void end(String why) {
        endLocked(why);
    }

    /** The tree is about to be rebuilt from the log or a snapshot: it may hold uncommitted proposals. */
    synchronized void treeRebuilt() {
        treeCommittedOnly = false;
        endLocked("its tree is being rebuilt");
    }

    private void endLocked(String why) {
        spell++;
        if (active) {
            // cleared before the connections are closed: a handshake racing with this either sees
            // the mode off or is closed below (it marks itself read-only before it checks)
            active = false;
            log.info("member {}: stops serving read-only sessions: {}", myId, why);
            registry.closeReadOnly();
        }
    }
}
