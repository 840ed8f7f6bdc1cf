package dev.warden.server.quorum;

import dev.warden.consensus.Zxid;
import dev.warden.storage.TxnLog;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Test double for the consensus side of an ensemble: a fixed leader that commits every proposal
 * at once and informs the others in order, over in-JVM "links" that deliver straight into each
 * member's driver. It exercises the member pipeline (forwarding, per-session order, sessions,
 * syncs) without elections or quorums.
 */
final class InOrderBus {
    final Map<Long, MemberDriver> drivers = new ConcurrentHashMap<>();
    /** Each member's transaction log, so a test can wait for a write to be on a member's disk. */
    final Map<Long, TxnLog> logs = new ConcurrentHashMap<>();
    private final Set<Long> logOnly = ConcurrentHashMap.newKeySet();
    /** What the leader's core says when asked whether it hears a quorum (the bus itself delivers regardless). */
    private volatile boolean leaderInTouch = true;
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

    /**
     * From now on {@code memberId} gets the leader's entries as proposals without a commit, as a
     * member does whose leader is lost before it commits them.
     */
    void logOnly(long memberId) {
        logOnly.add(memberId);
    }

    /** Ends {@link #logOnly} for {@code memberId}. */
    void commitAgain(long memberId) {
        logOnly.remove(memberId);
    }

    /** From now on the leader's core says it has not heard from a quorum, as a leader cut off would. */
    void cutLeaderOff() {
        leaderInTouch = false;
    }

    void reconnectLeader() {
        leaderInTouch = true;
    }

    boolean leaderInTouch() {
        return leaderInTouch;
    }

    /** The last zxid durable in {@code memberId}'s log, or -1 before the member started. */
    long lastDurableZxid(long memberId) {
        TxnLog log = logs.get(memberId);
        return log == null ? -1 : log.lastDurableZxid();
    }

    void deliver(long from, long to, dev.warden.consensus.ZabMessage message) {
        MemberDriver driver = drivers.get(to);
        if (driver != null) {
            if (message instanceof dev.warden.consensus.ZabMessage.Inform inform && logOnly.contains(to)) {
                message = new dev.warden.consensus.ZabMessage.Propose(inform.entries());
            }
            driver.peerMessage(from, message);
        }
    }
}
