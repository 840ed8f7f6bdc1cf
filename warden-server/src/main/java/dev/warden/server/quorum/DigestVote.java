package dev.warden.server.quorum;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The leader's half of the run-time tree check: for each zxid whose digest it published, the
 * digests its members report for the same zxid, its own included. Once a quorum of voters agrees
 * on one digest, that is the history's tree; every member that reported another diverged (a bug,
 * or damage that passed every checksum) and must take a copy of the leader's history. Usually
 * that is one follower; if a quorum of the others agree against the leader, it is the leader,
 * which then sets its own history aside and lets the others elect. Without a quorum agreeing
 * nobody is told anything: there is no way to know who is right. Driver thread only.
 */
final class DigestVote {
    /** A member whose digest differs from the one a quorum agreed on, after {@code zxid}. */
    record Diverged(long memberId, long zxid, long theirs, long quorums) {
    }

    /** Published zxids remembered; reports for older ones are dropped. */
    static final int OPEN_ROUNDS = 8;

    private final long myId;
    private final Set<Long> voters;
    private final int quorumSize;
    /** Published zxid to (member id to reported digest), oldest first. */
    private final LinkedHashMap<Long, Map<Long, Long>> rounds = new LinkedHashMap<>();
    /** Published zxid to the digest a quorum agreed on, once one did. */
    private final Map<Long, Long> decided = new HashMap<>();

    DigestVote(long myId, Set<Long> voters) {
        this.myId = myId;
        this.voters = Set.copyOf(voters);
        this.quorumSize = voters.size() / 2 + 1;
    }

    /** The leader published its own digest after {@code zxid}. */
    List<Diverged> published(long zxid, long digest) {
        if (rounds.containsKey(zxid)) {
            return List.of();
        }
        rounds.put(zxid, new HashMap<>());
        while (rounds.size() > OPEN_ROUNDS) {
            long oldest = rounds.keySet().iterator().next();
            rounds.remove(oldest);
            decided.remove(oldest);
        }
        return report(myId, zxid, digest);
    }

    /** A member (or the leader itself) reported its digest after {@code zxid}; returns who diverged, if now known. */
    List<Diverged> report(long memberId, long zxid, long digest) {
        Map<Long, Long> reports = rounds.get(zxid);
        if (reports == null || reports.putIfAbsent(memberId, digest) != null) {
            return List.of();
        }
        Long agreed = decided.get(zxid);
        if (agreed != null) {
            return digest == agreed ? List.of() : List.of(new Diverged(memberId, zxid, digest, agreed));
        }
        Map<Long, Integer> votes = new HashMap<>();
        for (Map.Entry<Long, Long> reported : reports.entrySet()) {
            if (voters.contains(reported.getKey())) {
                votes.merge(reported.getValue(), 1, Integer::sum);
            }
        }
        for (Map.Entry<Long, Integer> value : votes.entrySet()) {
            if (value.getValue() >= quorumSize) {
                long quorums = value.getKey();
                decided.put(zxid, quorums);
                List<Diverged> diverged = new ArrayList<>();
                reports.forEach((member, theirs) -> {
                    if (theirs != quorums) {
                        diverged.add(new Diverged(member, zxid, theirs, quorums));
                    }
                });
                return diverged;
            }
        }
        return List.of();
    }

    /** A new term or a reset state: nothing published before applies. */
    void clear() {
        rounds.clear();
        decided.clear();
    }
}
