package dev.warden.server.quorum;

import dev.warden.consensus.SnapshotSource;
import dev.warden.consensus.ZabConfig;
import dev.warden.server.ServerConfig;
import java.io.IOException;

/** The production consensus: a Zab core over the member's log, and TCP links to the peers. */
public final class ZabConsensus implements ConsensusFactory {
    /** Entries per Propose/Inform/DIFF message: big enough to batch, small enough to stay under frame limits. */
    private static final int MAX_ENTRIES_PER_MESSAGE = 1000;
    private final Resources resources;

    public ZabConsensus(Resources resources) {
        this.resources = resources;
    }

    /** The core's configuration, from zoo.cfg. */
    public static ZabConfig zabConfig(ServerConfig config) {
        long tickMs = config.tickTimeMs();
        // Two ticks: long enough for a round of votes on a loaded machine, short enough to fail over fast.
        long electionTimeoutMs = 2 * tickMs;
        return new ZabConfig(config.serverId(), config.voterIds(), config.observerIds(), tickMs,
                config.initLimitTicks(), config.syncLimitTicks(), electionTimeoutMs, MAX_ENTRIES_PER_MESSAGE);
    }

    @Override
    public ConsensusCore core(SnapshotSource snapshots, long nowMs) throws IOException {
        throw new IOException("the Zab core is not available in this build yet");
    }

    @Override
    public PeerSender connect(MemberDriver driver) throws IOException {
        throw new IOException("the peer transport is not available in this build yet");
    }

    @Override
    public void close() {
    }
}
