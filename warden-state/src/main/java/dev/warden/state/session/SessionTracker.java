package dev.warden.state.session;

import dev.warden.state.common.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Live sessions and when each expires. Expiry times are rounded up to whole ticks so that
 * sessions expire in buckets, one check per tick, instead of one timer per session.
 * Thread-safe: touched by network threads, checked by the ticker.
 *
 * <p>Most sessions are global: every member knows them from the log. With localSessionsEnabled
 * an ensemble member also keeps local sessions, made without the quorum and known to this
 * member alone; they have their own expiry buckets (the member expires them itself), are left
 * out of snapshots and activity reports, and become global when a createSession for their id is
 * applied (an upgrade).
 */
public final class SessionTracker {
    private final Clock clock;
    private final long tickMs;
    private final Map<Long, Session> sessions = new ConcurrentHashMap<>();
    /**
     * Expiry time → the sessions expiring then. A bucket holds the Session objects themselves
     * (compared by identity): a set of ids would box one more Long for every session.
     */
    private final TreeMap<Long, Set<Session>> bucketsByExpiryMs = new TreeMap<>();
    /** The local sessions' buckets, kept apart so only this member's own check takes them. */
    private final TreeMap<Long, Set<Session>> localBucketsByExpiryMs = new TreeMap<>();
    private volatile int localSessions;
    private long nextSessionId;
    /** Sessions touched since {@link #drainActive}, when an ensemble member reports them. */
    private final Set<Long> activeSinceReport = ConcurrentHashMap.newKeySet();
    private volatile boolean recordingActivity;

    public SessionTracker(Clock clock, long tickMs, int serverId) {
        this.clock = clock;
        this.tickMs = tickMs;
        // Top byte: server id; next 40 bits: a millisecond clock; low 16 bits: a counter.
        long base = ((clock.wallTimeMs() << 24) >>> 8) | ((long) serverId << 56);
        this.nextSessionId = base == Long.MIN_VALUE ? base + 1 : base;
    }

    /** A session as the tracker knows it. */
    public static final class Session {
        private final long id;
        private final byte[] password;
        private volatile int timeoutMs;
        private volatile long expiresAtMs;
        private volatile boolean closing;
        /** Known to this member only (localSessionsEnabled), until an upgrade makes it global. */
        private volatile boolean local;
        /** A local session whose createSession is on its way to the leader. */
        private boolean upgrading;

        Session(long id, int timeoutMs, byte[] password, boolean local) {
            this.id = id;
            this.timeoutMs = timeoutMs;
            this.password = password.clone();
            this.local = local;
        }

        public boolean isLocal() {
            return local;
        }

        public long id() {
            return id;
        }

        public int timeoutMs() {
            return timeoutMs;
        }

        public byte[] password() {
            return password.clone();
        }

        public boolean isClosing() {
            return closing;
        }

        public boolean passwordMatches(byte[] candidate) {
            return candidate != null && java.security.MessageDigest.isEqual(password, candidate);
        }
    }

    public synchronized long newSessionId() {
        long id;
        do {
            id = nextSessionId++;
            // Never the container marker, never a session restored from disk.
        } while (id == Long.MIN_VALUE || sessions.containsKey(id));
        return id;
    }

    /**
     * Registers a global session (on applying its createSession, or on recovery). A local session
     * of the same id becomes global: its createSession was its upgrade.
     */
    public synchronized void add(long id, int timeoutMs, byte[] password) {
        Session existing = sessions.get(id);
        if (existing != null) {
            if (existing.local) {
                unschedule(existing);
                existing.local = false;
                localSessions--;
                existing.upgrading = false;
                if (!existing.closing) {
                    schedule(existing);
                }
            }
            return;
        }
        Session session = new Session(id, timeoutMs, password, false);
        sessions.put(id, session);
        schedule(session);
    }

    /** Registers a local session: this member made it without the quorum and alone knows it. */
    public synchronized void addLocal(long id, int timeoutMs, byte[] password) {
        if (sessions.containsKey(id)) {
            throw new IllegalStateException("session 0x" + Long.toHexString(id) + " already exists");
        }
        Session session = new Session(id, timeoutMs, password, true);
        sessions.put(id, session);
        localSessions++;
        schedule(session);
    }

    /** True if the session is known here as a local session. */
    public boolean isLocal(long id) {
        Session session = sessions.get(id);
        return session != null && session.local;
    }

    /** True while a local session's createSession is on its way to the leader. */
    public synchronized boolean isUpgrading(long id) {
        Session session = sessions.get(id);
        return session != null && session.local && session.upgrading;
    }

    /**
     * Claims a local session's upgrade: true once, for the request that sends its createSession
     * to the leader; false if it is not local (any more) or its upgrade is already on its way.
     */
    public synchronized boolean startUpgrade(long id) {
        Session session = sessions.get(id);
        if (session == null || !session.local || session.upgrading) {
            return false;
        }
        session.upgrading = true;
        return true;
    }

    public synchronized void remove(long id) {
        Session session = sessions.remove(id);
        if (session != null) {
            unschedule(session);
            if (session.local) {
                localSessions--;
            }
        }
    }

    public Session get(long id) {
        return sessions.get(id);
    }

    /** True if the session is known and not closing. */
    public boolean isActive(long id) {
        Session session = sessions.get(id);
        return session != null && !session.closing;
    }

    /** Pushes the session's expiry out by its timeout. False if unknown or closing. */
    public boolean touch(long id) {
        Session session = sessions.get(id);
        if (session == null || session.closing) {
            return false;
        }
        if (recordingActivity && !session.local) {
            activeSinceReport.add(id);
        }
        // Most touches land in the bucket the session is already in: skip the lock for them.
        if (roundUpToTick(clock.monotonicMs() + session.timeoutMs) == session.expiresAtMs) {
            return true;
        }
        return touchLocked(id);
    }

    private synchronized boolean touchLocked(long id) {
        Session session = sessions.get(id);
        if (session == null || session.closing) {
            return false;
        }
        long next = roundUpToTick(clock.monotonicMs() + session.timeoutMs);
        if (next != session.expiresAtMs) {
            unschedule(session);
            session.expiresAtMs = next;
            bucketsOf(session).computeIfAbsent(next, k -> new HashSet<>()).add(session);
        }
        return true;
    }

    /** Gives every session that is not closing a fresh full timeout from now. */
    public synchronized void touchAllOpen() {
        for (Session session : sessions.values()) {
            if (!session.closing) {
                touchLocked(session.id);
            }
        }
    }

    /** Re-attach on a new connection: the client may have asked for a different timeout. */
    public synchronized boolean reattach(long id, int timeoutMs) {
        Session session = sessions.get(id);
        if (session == null || session.closing) {
            return false;
        }
        session.timeoutMs = timeoutMs;
        return touchLocked(id);
    }

    /** Marks a session closing: its requests now fail, and it will not be expired twice. */
    public synchronized void markClosing(long id) {
        Session session = sessions.get(id);
        if (session != null) {
            session.closing = true;
            unschedule(session);
        }
    }

    /** Undoes markClosing when the close could not be made durable. */
    public synchronized void clearClosing(long id) {
        Session session = sessions.get(id);
        if (session != null && session.closing) {
            session.closing = false;
            schedule(session);
        }
    }

    /** Global sessions whose expiry time has passed; each is marked closing and returned once. */
    public synchronized List<Long> takeExpired() {
        return takeExpired(bucketsByExpiryMs);
    }

    /** Local sessions whose expiry time has passed; each is marked closing and returned once. */
    public synchronized List<Long> takeExpiredLocal() {
        return takeExpired(localBucketsByExpiryMs);
    }

    private List<Long> takeExpired(TreeMap<Long, Set<Session>> buckets) {
        long now = clock.monotonicMs();
        List<Long> expired = new ArrayList<>();
        while (!buckets.isEmpty() && buckets.firstKey() <= now) {
            for (Session session : buckets.pollFirstEntry().getValue()) {
                if (sessions.get(session.id) == session && !session.closing) {
                    session.closing = true;
                    expired.add(session.id);
                }
            }
        }
        return expired;
    }

    /** Global sessions (closing ones included). */
    public int size() {
        return sessions.size() - localCount();
    }

    /** Local sessions (closing ones included). */
    public int localCount() {
        return localSessions;
    }

    /** Members that do not decide expiry remember which sessions were touched, for the leader. */
    public void recordActivity(boolean on) {
        recordingActivity = on;
        if (!on) {
            activeSinceReport.clear();
        }
    }

    /** The sessions touched since the last call (when recording). */
    public List<Long> drainActive() {
        List<Long> ids = new ArrayList<>(activeSinceReport);
        activeSinceReport.removeAll(ids);
        return ids;
    }

    /**
     * Gives every session a fresh full timeout and forgets closings that never reached the log:
     * a new leader cannot know how long members' clients have been quiet, so it starts afresh.
     */
    public synchronized void refreshAll() {
        bucketsByExpiryMs.clear();
        localBucketsByExpiryMs.clear();
        for (Session session : sessions.values()) {
            session.closing = false;
            schedule(session);
        }
    }

    /** Forgets every session (an ensemble member rebuilding its state). */
    public synchronized void clear() {
        sessions.clear();
        localSessions = 0;
        bucketsByExpiryMs.clear();
        localBucketsByExpiryMs.clear();
        activeSinceReport.clear();
    }

    /** Snapshot of live global sessions (including closing ones), for snapshots and `dump`. */
    public List<Session> sessions() {
        List<Session> global = new ArrayList<>(sessions.size());
        for (Session session : sessions.values()) {
            if (!session.local) {
                global.add(session);
            }
        }
        return global;
    }

    /** When each session expires, for `dump`: expiry ms (monotonic) → session ids. */
    public synchronized Map<Long, Set<Long>> expiryBuckets() {
        TreeMap<Long, Set<Long>> copy = new TreeMap<>();
        bucketsByExpiryMs.forEach((time, bucket) -> {
            Set<Long> ids = new HashSet<>();
            bucket.forEach(session -> ids.add(session.id));
            copy.put(time, ids);
        });
        return copy;
    }

    private TreeMap<Long, Set<Session>> bucketsOf(Session session) {
        return session.local ? localBucketsByExpiryMs : bucketsByExpiryMs;
    }

    private void schedule(Session session) {
        session.expiresAtMs = roundUpToTick(clock.monotonicMs() + session.timeoutMs);
        bucketsOf(session).computeIfAbsent(session.expiresAtMs, k -> new HashSet<>()).add(session);
    }

    private void unschedule(Session session) {
        TreeMap<Long, Set<Session>> buckets = bucketsOf(session);
        Set<Session> bucket = buckets.get(session.expiresAtMs);
        if (bucket != null) {
            bucket.remove(session);
            if (bucket.isEmpty()) {
                buckets.remove(session.expiresAtMs);
            }
        }
    }

    private long roundUpToTick(long timeMs) {
        return (timeMs / tickMs + 1) * tickMs;
    }
}
