package dev.warden.server.quorum;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * A member's own digests for the run-time tree check (ZooKeeper's {@code digest.enabled}): the
 * leader publishes the digest of its tree right after a zxid it applied; this member finds its
 * own digest right after the same zxid and reports it, and the leader decides with a quorum who
 * diverged ({@link DigestVote}). This member's digests of recent zxids are kept in a ring; a
 * leader's digest for a zxid not applied yet waits for it. Only zxids from the point where the
 * state became exact are recorded (a fuzzy snapshot it loaded may hold later changes until the
 * replay has passed its end), so earlier ones are never compared. Apply thread only.
 */
final class DigestCheck {
    /** The leader's digest after a zxid and this member's after the same zxid. */
    record Sample(long zxid, long ours, long leaders) {
        boolean matches() {
            return ours == leaders;
        }
    }

    /** How many of this member's recent digests are kept: a leader's digest arrives within a few ms. */
    static final int RECENT_ZXIDS = 16_384;
    /** Leader digests waiting for their zxid; more means this member is far behind, and more are dropped. */
    static final int MAX_AWAITED = 1_024;

    private final long[] zxids = new long[RECENT_ZXIDS];
    private final long[] digests = new long[RECENT_ZXIDS];
    private int newest = -1;
    private int count;
    private final TreeMap<Long, Long> awaited = new TreeMap<>();
    private long uncomparable;

    /**
     * This member applied {@code zxid} and its replicated digest is now {@code digest}; returns
     * the leader digests that were waiting for it (at most one), as samples.
     */
    List<Sample> applied(long zxid, long digest) {
        newest = (newest + 1) % RECENT_ZXIDS;
        zxids[newest] = zxid;
        digests[newest] = digest;
        count = Math.min(count + 1, RECENT_ZXIDS);
        if (awaited.isEmpty()) {
            return List.of();
        }
        // leader digests for zxids this member never recorded (before its state was exact) are dropped
        var passed = awaited.headMap(zxid);
        uncomparable += passed.size();
        passed.clear();
        Long leaders = awaited.remove(zxid);
        List<Sample> samples = new ArrayList<>(1);
        if (leaders != null) {
            samples.add(new Sample(zxid, digest, leaders));
        }
        return samples;
    }

    /**
     * The leader's digest after {@code zxid}; {@code lastApplied} is how far this member has
     * applied. Returns the sample if this member's own digest there is known, else null (it
     * waits for the zxid, or the zxid is too old or before the state became exact).
     */
    Sample leaderDigest(long zxid, long leadersDigest, long lastApplied) {
        if (zxid > lastApplied) {
            if (awaited.size() < MAX_AWAITED) {
                awaited.put(zxid, leadersDigest);
            } else {
                uncomparable++;
            }
            return null;
        }
        for (int i = 0, at = newest; i < count; i++, at = (at - 1 + RECENT_ZXIDS) % RECENT_ZXIDS) {
            if (zxids[at] == zxid) {
                return new Sample(zxid, digests[at], leadersDigest);
            }
            if (zxids[at] < zxid) {
                break;
            }
        }
        uncomparable++;
        return null;
    }

    /** The state was replaced (a TRUNC, a SNAP, a history set aside): nothing recorded applies any more. */
    void reset() {
        newest = -1;
        count = 0;
        awaited.clear();
    }

    /** Leader digests that could not be compared (too old, or before this member's state was exact). */
    long uncomparableCount() {
        return uncomparable;
    }
}
