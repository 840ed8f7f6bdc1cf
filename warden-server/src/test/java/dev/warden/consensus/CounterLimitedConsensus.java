package dev.warden.consensus;

import dev.warden.server.peer.PeerSender;
import dev.warden.server.quorum.ConsensusCore;
import dev.warden.server.quorum.ConsensusFactory;
import dev.warden.server.quorum.MemberDriver;
import dev.warden.server.quorum.ZabConsensus;
import dev.warden.server.quorum.ZabCore;
import java.io.IOException;
import java.security.SecureRandom;

/**
 * Test hook: the production consensus with every epoch ending after {@code counterLimit}
 * proposals, so a test reaches zxid counter exhaustion after a few writes. Lives in the core's
 * package to use its test-only limit.
 */
public final class CounterLimitedConsensus implements ConsensusFactory {
    private final Resources resources;
    private final long counterLimit;
    private final ZabConsensus links;

    public CounterLimitedConsensus(Resources resources, long counterLimit) {
        this.resources = resources;
        this.counterLimit = counterLimit;
        this.links = new ZabConsensus(resources);
    }

    @Override
    public ConsensusCore core(SnapshotSource snapshots, long nowMs) {
        ZabPeer peer = new ZabPeer(ZabConsensus.zabConfig(resources.config()), resources.epochs(),
                resources.logView(), snapshots, new SecureRandom(), nowMs, resources.resyncRequired(),
                resources.configurations(), dev.warden.server.quorum.ReconfigEntries.INSTANCE);
        peer.limitCounterForTests(counterLimit);
        return new ZabCore(peer);
    }

    @Override
    public long zxidCounterLimit() {
        return counterLimit;
    }

    @Override
    public PeerSender connect(MemberDriver driver) throws IOException {
        return links.connect(driver);
    }

    @Override
    public void membersChanged(java.util.Map<Long, dev.warden.server.config.QuorumMember> members) {
        links.membersChanged(members);
    }

    @Override
    public void close() {
        links.close();
    }
}
