package dev.warden.consensus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The INFORM stream of one observer master, driven by hand: every committed entry reaches its
 * observers once and in order, also one the master logged before it started following, which
 * commits without being handed out to the master's own state machine again.
 */
class ObserverMasterInformTest {
    private static final long MASTER = 1;
    private static final long LEADER = 3;
    private static final long OBSERVER = 4;
    private static final long EPOCH = 1;

    @Test
    void anEntryLoggedBeforeFollowingIsInformedWhenItCommits() {
        long logged = Zxid.of(EPOCH, 1);
        long proposed = Zxid.of(EPOCH, 2);
        MemoryLog log = MemoryLog.of(logged);
        ZabConfig config = new ZabConfig(MASTER, Set.of(1L, 2L, 3L), Set.of(OBSERVER), 100, 10, 5, 200, 3,
                Long.MAX_VALUE, true);
        PeerState state = new PeerState(config, new EpochState(EPOCH, EPOCH), log, log::snapshot,
                new SplittableRandom(1), 0, false,
                Configurations.of(Configuration.majority(0, config.voters(), config.observers())), ConfigCodec.NONE);
        state.setRole(Role.FOLLOWING, LEADER, EPOCH, true);
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
