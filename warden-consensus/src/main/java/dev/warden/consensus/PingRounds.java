package dev.warden.consensus;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Heartbeat rounds. Each round is numbered; a follower's PINGACK for round r shows it still
 * followed us after r went out. A linearizable sync waits for a quorum to ack a round sent after
 * its request arrived: then we were still leader when we noted its committed zxid.
 */
final class PingRounds {
    private record Waiting(long from, long token, long zxid, long round) { }

    private final PeerState state;
    private final LeaderSide leader;
    private long round;
    private long nextPingMs;
    private boolean roundRequested;
    private final List<Waiting> waiting = new ArrayList<>();

    PingRounds(PeerState state, LeaderSide leader) {
        this.state = state;
        this.leader = leader;
    }

    void tick() {
        if (state.nowMs >= nextPingMs) {
            startRound();
        }
    }

    void startRound() {
        round++;
        roundRequested = false;
        nextPingMs = state.nowMs + Math.max(1, state.config.tickMs() / 2);
        for (LeaderLink link : leader.links.values()) {
            if (link.atLeast(LeaderLink.Stage.EPOCH_ACKED)) {
                state.out.send(link.id, new ZabMessage.Ping(round, state.committedZxid));
            }
        }
        complete();
    }

    /** A sync request: answered after a round that starts after now; requests in one batch share it. */
    void request(long from, long token, long committedZxid) {
        waiting.add(new Waiting(from, token, committedZxid, round + 1));
        roundRequested = true;
    }

    void flush() {
        if (roundRequested) {
            startRound();
        }
    }

    void onPingAck(LeaderLink link, long ackedRound) {
        if (ackedRound > round || ackedRound <= link.pingRoundAcked) {
            return;
        }
        link.pingRoundAcked = ackedRound;
        complete();
    }

    /** The newest round a quorum of synced voters (this member included) acknowledged. */
    private long confirmedRound() {
        Map<Long, Long> acked = new HashMap<>();
        acked.put(state.config.myId(), round);
        for (LeaderLink link : leader.links.values()) {
            if (!link.observer && link.stage == LeaderLink.Stage.SYNCED) {
                acked.put(link.id, link.pingRoundAcked);
            }
        }
        for (long candidate : new TreeSet<>(acked.values()).descendingSet()) {
            Set<Long> ackers = new HashSet<>();
            for (Map.Entry<Long, Long> ack : acked.entrySet()) {
                if (ack.getValue() >= candidate) {
                    ackers.add(ack.getKey());
                }
            }
            if (state.isQuorum(ackers)) {
                return candidate;
            }
        }
        return 0;
    }

    private void complete() {
        if (waiting.isEmpty()) {
            return;
        }
        long confirmed = confirmedRound();
        Iterator<Waiting> it = waiting.iterator();
        List<Waiting> done = new ArrayList<>();
        while (it.hasNext()) {
            Waiting w = it.next();
            if (w.round() <= confirmed) {
                done.add(w);
                it.remove();
            }
        }
        for (Waiting w : done) {
            leader.broadcast.replySync(w.from(), w.token(), w.zxid());
        }
    }
}
