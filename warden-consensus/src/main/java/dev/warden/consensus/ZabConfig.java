package dev.warden.consensus;

import java.util.Set;

/**
 * This member and its timing, and the ensemble of a member started without a configuration
 * history ({@link ZabPeer}'s shorter constructors: a static majority configuration, version 0).
 * Time is in milliseconds of the driver's monotonic clock, passed to every {@code tick}.
 *
 * @param myId                     this member's id (the {@code myid} file)
 * @param voters                   ids of voting members of the static configuration
 * @param observers                ids of non-voting members of the static configuration
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
 * @param observerMasters          ZooKeeper's observerMasterPort is set: a serving follower takes observers
 *                                 (synchronizes them, relays the committed stream and their traffic), and an
 *                                 observer follows a voter other than the leader, moving on to another when
 *                                 that one fails ({@link ObserverMaster}, {@link MasterRotation})
 * @param observerReconnectDelayMs ZooKeeper's observer.reconnectDelayMs: before an observer asks its leader
 *                                 (observer masters off: at every attempt) or, with observer masters on,
 *                                 before it starts over with the first master once every one was tried,
 *                                 it waits a time drawn from its seeded random, from 0 up to (not including)
 *                                 this; 0 (the default) never waits ({@link ObserverUpstream})
 */
public record ZabConfig(long myId, Set<Long> voters, Set<Long> observers, long tickMs, int initLimitTicks,
                        int syncLimitTicks, long electionTimeoutMs, int maxEntriesPerMessage,
                        long maxSyncDiffBytes, boolean observerMasters, long observerReconnectDelayMs) {
    /** Observers ask at once, without ZooKeeper's reconnect delay. */
    public ZabConfig(long myId, Set<Long> voters, Set<Long> observers, long tickMs, int initLimitTicks,
                     int syncLimitTicks, long electionTimeoutMs, int maxEntriesPerMessage, long maxSyncDiffBytes,
                     boolean observerMasters) {
        this(myId, voters, observers, tickMs, initLimitTicks, syncLimitTicks, electionTimeoutMs, maxEntriesPerMessage,
                maxSyncDiffBytes, observerMasters, 0);
    }

    /** Observers follow the leader itself (ZooKeeper without observerMasterPort). */
    public ZabConfig(long myId, Set<Long> voters, Set<Long> observers, long tickMs, int initLimitTicks,
                     int syncLimitTicks, long electionTimeoutMs, int maxEntriesPerMessage, long maxSyncDiffBytes) {
        this(myId, voters, observers, tickMs, initLimitTicks, syncLimitTicks, electionTimeoutMs, maxEntriesPerMessage,
                maxSyncDiffBytes, false);
    }

    public ZabConfig {
        voters = Set.copyOf(voters);
        observers = Set.copyOf(observers);
        for (Long id : observers) {
            if (voters.contains(id)) {
                throw new IllegalArgumentException("member " + id + " is both voter and observer");
            }
        }
        if (voters.isEmpty() || tickMs <= 0 || initLimitTicks <= 0 || syncLimitTicks <= 0 || electionTimeoutMs <= 0
                || maxEntriesPerMessage <= 0 || maxSyncDiffBytes <= 0 || observerReconnectDelayMs < 0) {
            throw new IllegalArgumentException("invalid consensus configuration");
        }
    }
}
