package dev.warden.server.quorum;

import dev.warden.consensus.Configurations;
import dev.warden.consensus.EpochState;
import dev.warden.consensus.SnapshotSource;
import dev.warden.server.config.QuorumMember;
import dev.warden.server.config.ServerConfig;
import dev.warden.server.log.TxnLogView;
import dev.warden.server.peer.PeerSender;
import dev.warden.state.common.Clock;
import dev.warden.storage.TxnLog;
import java.io.IOException;
import java.util.Map;

/**
 * Builds the consensus side of one member: its core and its links to the other members. The
 * production factory makes a Zab core and the TCP peer transport; tests may substitute both.
 */
public interface ConsensusFactory extends AutoCloseable {
    /**
     * What a factory may use: the member's configuration, log (and the core's view of it),
     * persisted epochs and clock, whether the member must take a copy of a leader's history
     * before it counts toward any quorum (its resync marker is on disk), and the configurations
     * it starts with ({@link StartingConfigurations}).
     */
    record Resources(ServerConfig config, TxnLog txnLog, TxnLogView logView, EpochState epochs, Clock clock,
                     boolean resyncRequired, Configurations configurations) {
    }

    /** Chooses the factory for a member once its log is open. */
    interface Provider {
        ConsensusFactory create(Resources resources) throws IOException;
    }

    ConsensusCore core(SnapshotSource snapshots, long nowMs) throws IOException;

    /** The last zxid counter of an epoch; the leader's prep must roll over where the core does. */
    default long zxidCounterLimit() {
        return dev.warden.consensus.Zxid.MAX_COUNTER;
    }

    /** Opens the links to the peers; inbound messages and disconnects go to {@code driver}. */
    PeerSender connect(MemberDriver driver) throws IOException;

    /**
     * The members of every configuration the member knows (and the member itself): links go to
     * these, and connections from anyone else are refused. Any thread.
     */
    void membersChanged(Map<Long, QuorumMember> members);

    @Override
    void close();
}
