package dev.warden.consensus;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Predicate;

/**
 * Drives a few ZabPeers by hand: one FIFO queue of messages in flight, a clock moved explicitly,
 * and a driver per member performing each Ready in the documented order.
 */
final class TestCluster {
    record InFlight(long from, long to, ZabMessage message) { }

    /** A one-way link whose messages vanish, with no disconnect notice (packets lost in a partition). */
    record Link(long from, long to) { }

    final class Member {
        final long id;
        final MemoryLog log;
        EpochState durableEpochs;
        /** The member's resync marker, as its driver would keep it on disk. */
        boolean resyncMarker;
        /** The newest configuration this member's driver recorded committed (its dynamic file). */
        Configuration committedConfiguration;
        ZabPeer peer;
        final List<Ready> readies = new ArrayList<>();
        final List<Received> received = new ArrayList<>();
        final List<Long> syncsDone = new ArrayList<>();

        Member(long id, MemoryLog log, EpochState epochs, boolean resyncMarker) {
            this.id = id;
            this.log = log;
            this.durableEpochs = epochs;
            this.resyncMarker = resyncMarker;
            start();
        }

        /** Snapshots asked for in the background, each taken when asked, handed over by {@link #answerSnapshots}. */
        final List<Runnable> snapshotsAsked = new ArrayList<>();

        /** Hands the member the snapshots it asked for in the background, then performs what follows. */
        void answerSnapshots() {
            List<Runnable> answers = List.copyOf(snapshotsAsked);
            snapshotsAsked.clear();
            answers.forEach(Runnable::run);
            drive();
        }

        /**
         * The member's snapshots, estimated at {@link #snapshotEstimateBytes} when that is set; with
         * {@link #snapshotsInBackground}, answered only by {@link #answerSnapshots}.
         */
        SnapshotSource snapshots() {
            long estimateBytes = snapshotEstimateBytes;
            if (snapshotsInBackground) {
                return new SnapshotSource() {
                    @Override
                    public SnapshotData take() {
                        return log.snapshot();
                    }

                    @Override
                    public void takeInBackground(java.util.function.Consumer<SnapshotData> taken) {
                        SnapshotData snapshot = take();
                        snapshotsAsked.add(() -> taken.accept(snapshot));
                    }
                };
            }
            if (estimateBytes < 0) {
                return log::snapshot;
            }
            return new SnapshotSource() {
                @Override
                public SnapshotData take() {
                    return log.snapshot();
                }

                @Override
                public long estimatedBytes() {
                    return estimateBytes;
                }
            };
        }

        void start() {
            if (initialConfiguration == null) {
                peer = new ZabPeer(config(id), durableEpochs, log, snapshots(), new SplittableRandom(id), nowMs,
                        resyncMarker);
            } else {
                if (committedConfiguration == null) {
                    committedConfiguration = initialConfiguration;
                }
                peer = new ZabPeer(config(id), durableEpochs, log, snapshots(), new SplittableRandom(id), nowMs,
                        resyncMarker, startingConfigurations(), TestConfigs.CODEC);
            }
            if (counterLimit > 0) {
                peer.limitCounterForTests(counterLimit);
            }
        }

        /** As a driver finds them: the recorded committed one, and the configuration entries its log holds after it. */
        Configurations startingConfigurations() {
            java.util.List<Configuration> logged = new ArrayList<>();
            for (Entry entry : log.entries.tailMap(committedConfiguration.version(), false).values()) {
                Configuration found = TestConfigs.CODEC.configurationIn(entry);
                if (found != null) {
                    logged.add(found);
                }
            }
            return new Configurations(committedConfiguration, logged);
        }

        void drive() {
            while (peer.hasReady()) {
                Ready ready = peer.ready();
                readies.add(ready);
                ready.sendImmediately().forEach(o -> queue.add(new InFlight(id, o.to(), o.message())));
                if (ready.abandonHistory()) {
                    resyncMarker = true;
                    log.forgetEverything();
                }
                if (ready.epochs() != null) {
                    durableEpochs = ready.epochs();
                }
                if (ready.truncateAfterZxid() >= 0) {
                    log.truncateAfter(ready.truncateAfterZxid());
                }
                if (ready.snapshot() != null) {
                    log.install(ready.snapshot());
                }
                ready.entriesToPersist().forEach(log::append);
                ready.sendAfterPersist().forEach(o -> queue.add(new InFlight(id, o.to(), o.message())));
                ready.committed().forEach(log::apply);
                received.addAll(ready.received());
                syncsDone.addAll(ready.syncsDone());
                if (ready.resynced()) {
                    resyncMarker = false;
                }
                if (ready.configurationCommitted() != null) {
                    committedConfiguration = ready.configurationCommitted();
                }
                peer.advance(ready);
            }
        }
    }

    final Map<Long, Member> members = new LinkedHashMap<>();
    final Deque<InFlight> queue = new ArrayDeque<>();
    final List<InFlight> delivered = new ArrayList<>();
    final Set<Long> down = new HashSet<>();
    final Set<Link> blocked = new HashSet<>();
    final Set<Long> voters;
    final Set<Long> observers;
    long nowMs;
    /** If positive, every member's epochs end after this many proposals (to exercise epoch bumps). */
    long counterLimit;
    /**
     * When set (before adding members), members start with it as their committed configuration
     * and recognise {@link TestConfigs} entries as configuration changes.
     */
    Configuration initialConfiguration;
    /** Each member's {@link ZabConfig#maxSyncDiffBytes}; set before adding members to make diffs small. */
    long syncDiffBytes = Long.MAX_VALUE;
    /** Members' snapshots for SNAP are answered only when a test calls {@link Member#answerSnapshots} (set before adding members). */
    boolean snapshotsInBackground;
    /** What each member's snapshot source estimates a snapshot at; negative: unknown (set before adding members). */
    long snapshotEstimateBytes = -1;
    /** Each member's {@link ZabConfig#observerMasters}; set before adding members. */
    boolean observerMasters;
    /** Each member's {@link ZabConfig#observerReconnectDelayMs}; set before adding members. */
    long observerReconnectDelayMs;

    TestCluster(Set<Long> voters, Set<Long> observers) {
        this.voters = voters;
        this.observers = observers;
    }

    ZabConfig config(long id) {
        return new ZabConfig(id, voters, observers, 100, 10, 5, 200, 3, syncDiffBytes, observerMasters,
                observerReconnectDelayMs);
    }

    Member add(long id, MemoryLog log, EpochState epochs) {
        return add(id, log, epochs, false);
    }

    /** A member whose resync marker is on disk when {@code resyncMarker}; its log must then be empty. */
    Member add(long id, MemoryLog log, EpochState epochs, boolean resyncMarker) {
        Member member = new Member(id, log, epochs, resyncMarker);
        members.put(id, member);
        member.drive();
        return member;
    }

    Member member(long id) {
        return members.get(id);
    }

    void crash(long id) {
        down.add(id);
        queue.removeIf(m -> m.to() == id || m.from() == id);
    }

    /** Messages between a and b, both ways, vanish from now on (also those already in flight); both keep ticking. */
    void cut(long a, long b) {
        blocked.add(new Link(a, b));
        blocked.add(new Link(b, a));
    }

    void healCuts() {
        blocked.clear();
    }

    void restart(long id) {
        down.remove(id);
        member(id).log.replayAfterRestart();
        member(id).start();
        member(id).drive();
    }

    /** Delivers the oldest message in flight; false if none. Messages to or from a down member vanish. */
    boolean deliverOne() {
        InFlight next = queue.poll();
        if (next == null) {
            return false;
        }
        if (down.contains(next.to()) || down.contains(next.from())
                || blocked.contains(new Link(next.from(), next.to()))) {
            return true;
        }
        delivered.add(next);
        Member to = member(next.to());
        to.peer.receive(next.from(), next.message());
        to.drive();
        return true;
    }

    /** Delivers messages (and moves time a little when idle) until the condition holds. */
    void runUntil(Predicate<TestCluster> done, long maxMs) {
        long deadlineMs = nowMs + maxMs;
        int deliveredSinceTick = 0;
        while (!done.test(this)) {
            if (!deliverOne()) {
                advanceTime(10);
                deliveredSinceTick = 0;
            } else if (++deliveredSinceTick > 100_000) {
                List<InFlight> last = delivered.subList(Math.max(0, delivered.size() - 20), delivered.size());
                throw new AssertionError("message storm; the last delivered: " + last);
            }
            if (nowMs > deadlineMs) {
                throw new AssertionError("condition not reached within " + maxMs + " ms");
            }
        }
    }

    void deliverAll() {
        int guard = 0;
        while (deliverOne()) {
            if (++guard > 100_000) {
                throw new AssertionError("message storm");
            }
        }
    }

    void advanceTime(long ms) {
        nowMs += ms;
        for (Member member : members.values()) {
            if (!down.contains(member.id)) {
                member.peer.tick(nowMs);
                member.drive();
            }
        }
    }

    boolean allServing() {
        for (Member member : members.values()) {
            if (!down.contains(member.id) && !member.peer.isServing()) {
                return false;
            }
        }
        return true;
    }

    Member leader() {
        for (Member member : members.values()) {
            if (!down.contains(member.id) && member.peer.role() == Role.LEADING && member.peer.isServing()) {
                return member;
            }
        }
        return null;
    }

    /** Proposes a payload on the leader; returns its zxid. */
    long propose(String payload) {
        Member leader = leader();
        long zxid = leader.peer.nextZxid();
        if (!leader.peer.propose(zxid, payload.getBytes())) {
            throw new AssertionError("leader refused the proposal");
        }
        leader.drive();
        return zxid;
    }

    <T extends ZabMessage> List<InFlight> deliveredOfType(Class<T> type) {
        return delivered.stream().filter(m -> type.isInstance(m.message())).toList();
    }
}
