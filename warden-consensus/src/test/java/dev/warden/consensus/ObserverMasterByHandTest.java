package dev.warden.consensus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * One observer master driven by hand: every committed entry reaches its observers once and in
 * order, also one the master logged before it started following (which commits without being
 * handed out to its own state machine again); an observer whose log reaches past what the master
 * committed is synced only once the master has committed that far.
 */
class ObserverMasterByHandTest {
    private static final long MASTER = 1;
    private static final long LEADER = 3;
    private static final long OBSERVER = 4;
    private static final long EPOCH = 1;

    private static PeerState followerWith(MemoryLog log) {
        ZabConfig config = new ZabConfig(MASTER, Set.of(1L, 2L, 3L), Set.of(OBSERVER), 100, 10, 5, 200, 3,
                Long.MAX_VALUE, true);
        PeerState state = new PeerState(config, new EpochState(EPOCH, EPOCH), log, log::snapshot,
                new SplittableRandom(1), 0, false,
                Configurations.of(Configuration.majority(0, config.voters(), config.observers())), ConfigEntryCodec.NONE);
        state.setRole(Role.FOLLOWING, LEADER, EPOCH, true);
        return state;
    }

    @Test
    void anObserverAheadOfTheMasterIsSyncedOnlyOnceTheMasterCommittedItsLastEntry() {
        long first = Zxid.of(EPOCH, 1);
        long second = Zxid.of(EPOCH, 2);
        MemoryLog log = MemoryLog.of(first, second);
        PeerState state = followerWith(log);
        state.commitUpTo(first);
        ObserverMaster master = new ObserverMaster(state, LEADER);
        master.startServing();
        // the observer came from a master further ahead: it holds (committed) entry two
        master.receive(OBSERVER, new ZabMessage.FollowerInfo(EPOCH, second, true));
        master.receive(OBSERVER, new ZabMessage.AckEpoch(EPOCH, second));
        assertTrue(sentTo(state.out.build()).stream().noneMatch(m -> m instanceof ZabMessage.NewLeader
                        || m instanceof ZabMessage.Trunc),
                "no sync (and above all no truncation of applied entries) while the master lags");
        state.out = new ReadyBuilder();

        master.committed(state.commitUpTo(second));
        List<ZabMessage> sync = sentTo(state.out.build());
        assertEquals(new ZabMessage.Diff(second), sync.get(0));
        assertTrue(sync.get(sync.size() - 1) instanceof ZabMessage.NewLeader leader && leader.lastZxid() == second);
    }

    @Test
    void anEntryLoggedBeforeFollowingIsInformedWhenItCommits() {
        long logged = Zxid.of(EPOCH, 1);
        long proposed = Zxid.of(EPOCH, 2);
        MemoryLog log = MemoryLog.of(logged);
        PeerState state = followerWith(log);
        ObserverMaster master = new ObserverMaster(state, LEADER);
        master.startServing();
        master.receive(OBSERVER, new ZabMessage.FollowerInfo(0, 0, true));
        master.receive(OBSERVER, new ZabMessage.AckEpoch(0, 0));
        master.receive(OBSERVER, new ZabMessage.AckNewLeader(EPOCH));

        // the leader commits the entry this member had logged (and applied) before it followed
        master.committed(state.commitUpTo(logged));
        state.append(new Entry(proposed, "p".getBytes()));
        master.committed(state.commitUpTo(proposed));

        assertEquals(List.of(logged, proposed), informedTo(state.out.build()));
    }

    private static List<ZabMessage> sentTo(Ready ready) {
        return ready.sendImmediately().stream().filter(out -> out.to() == OBSERVER).map(Outbound::message).toList();
    }

    private static List<Long> informedTo(Ready ready) {
        List<Long> zxids = new ArrayList<>();
        for (Outbound out : ready.sendImmediately()) {
            if (out.to() == OBSERVER && out.message() instanceof ZabMessage.Inform inform) {
                inform.entries().forEach(entry -> zxids.add(entry.zxid()));
            }
        }
        return zxids;
    }
}
