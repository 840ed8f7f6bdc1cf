package dev.warden.server.quorum;

import dev.warden.consensus.Zxid;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Test double for the consensus side of an ensemble: a fixed leader that commits every proposal
 * at once and informs the others in order, over in-JVM "links" that deliver straight into each
 * member's driver. It exercises the member pipeline (forwarding, per-session order, sessions,
 * syncs) without elections or quorums.
 */
final class InOrderBus {
    final Map<Long, MemberDriver> drivers = new ConcurrentHashMap<>();
    final long leaderId;
    /** The zxid the leader proposes first; tests start it near the end of an epoch's counter. */
    final long firstZxid;

    InOrderBus(long leaderId, long firstZxid) {
        this.leaderId = leaderId;
        this.firstZxid = firstZxid;
    }

    InOrderBus(long leaderId) {
        this(leaderId, Zxid.of(1, 1));
    }

    ConsensusFactory.Provider provider() {
        return resources -> new InOrderConsensus(this, resources);
    }

    void deliver(long from, long to, dev.warden.consensus.ZabMessage message) {
        MemberDriver driver = drivers.get(to);
        if (driver != null) {
            driver.peerMessage(from, message);
        }
    }
}
