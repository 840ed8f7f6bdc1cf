package dev.warden.server.quorum;

import dev.warden.consensus.Zxid;
import java.util.Map;
import java.util.TreeMap;

/** How many transactions each follower is behind its leader, from the zxids the leader knows. */
final class FollowerLag {
    private FollowerLag() {
    }

    /**
     * {@code progress}: each synced follower's last zxid as the leader knows it. A follower's
     * zxid of an earlier epoch means it has none of this epoch's transactions: a sync gives a
     * follower everything before the epoch began.
     */
    static Map<Long, Long> of(long leaderZxid, Map<Long, Long> progress) {
        if (leaderZxid < 0 || progress.isEmpty()) {
            return Map.of();
        }
        Map<Long, Long> lag = new TreeMap<>();
        progress.forEach((id, zxid) -> lag.put(id, behind(leaderZxid, zxid)));
        return lag;
    }

    static long behind(long leaderZxid, long followerZxid) {
        if (followerZxid >= leaderZxid) {
            return 0;
        }
        return Zxid.epoch(followerZxid) == Zxid.epoch(leaderZxid)
                ? Zxid.counter(leaderZxid) - Zxid.counter(followerZxid)
                : Zxid.counter(leaderZxid);
    }
}
