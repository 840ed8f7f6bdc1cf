package dev.warden.consensus;

import java.util.Set;

/**
 * The ensemble as this member sees it, and its timing. Time is in milliseconds of the
 * driver's monotonic clock, passed to every {@code tick}.
 *
 * @param myId                     this member's id (the {@code myid} file)
 * @param voters                   ids of voting members, including myId if it votes
 * @param observers                ids of non-voting members, including myId if it observes
 * @param tickMs                   ZooKeeper's tickTime; heartbeats go out every tickMs / 2
 * @param initLimitTicks           a follower must connect to and sync with a leader within this many ticks
 * @param syncLimitTicks           a follower that has not answered a heartbeat for this many ticks is dropped, a
 *                                 follower that has not heard from its leader for this long looks for another, and
 *                                 a leader that has not heard from a quorum of voters for this long steps down
 * @param electionTimeoutMs        minimum time a member waits before re-sending votes/restarting an election round
 * @param maxEntriesPerMessage     cap on entries in one Propose/Inform/DIFF message
 * @param maxSyncDiffBytes         most payload bytes of log entries a leader sends one follower to sync it;
 *                                 a follower further behind gets a snapshot instead, so a member that was
 *                                 down under heavy writes rejoins without the leader reading (and queueing)
 *                                 everything it missed
 */
public record ZabConfig(long myId, Set<Long> voters, Set<Long> observers, long tickMs, int initLimitTicks,
                        int syncLimitTicks, long electionTimeoutMs, int maxEntriesPerMessage,
                        long maxSyncDiffBytes) {
    public ZabConfig {
        voters = Set.copyOf(voters);
        observers = Set.copyOf(observers);
        if (!voters.contains(myId) && !observers.contains(myId)) {
            throw new IllegalArgumentException("myId " + myId + " is neither a voter nor an observer");
        }
        for (Long id : observers) {
            if (voters.contains(id)) {
                throw new IllegalArgumentException("member " + id + " is both voter and observer");
            }
        }
        if (voters.isEmpty() || tickMs <= 0 || initLimitTicks <= 0 || syncLimitTicks <= 0 || electionTimeoutMs <= 0
                || maxEntriesPerMessage <= 0 || maxSyncDiffBytes <= 0) {
            throw new IllegalArgumentException("invalid consensus configuration");
        }
    }

    public boolean isObserver() {
        return observers.contains(myId);
    }

    public int quorumSize() {
        return voters.size() / 2 + 1;
    }

    /**
     * True with two or three voters: the leader's disk and one follower's are then a quorum, so
     * a follower commits what both hold without waiting for the COMMIT (LeaderDurable).
     */
    public boolean twoDisksAreAQuorum() {
        return quorumSize() == 2;
    }
}
