package dev.warden.server.quorum;

import dev.warden.consensus.SnapshotSource;
import dev.warden.server.config.QuorumMember;
import dev.warden.server.peer.PeerSender;
import java.io.IOException;

/** {@link ConsensusFactory} for one member of an {@link InOrderBus}. */
final class InOrderConsensus implements ConsensusFactory {
    private final InOrderBus bus;
    private final Resources resources;
    private MemberDriver driver;

    InOrderConsensus(InOrderBus bus, Resources resources) {
        this.bus = bus;
        this.resources = resources;
    }

    @Override
    public ConsensusCore core(SnapshotSource snapshots, long nowMs) {
        long myId = resources.config().serverId();
        bus.logs.put(myId, resources.txnLog());
        long lastZxid = resources.txnLog().lastAppendedZxid();
        return new InOrderCore(myId, bus.leaderId, resources.config().voterIds(), resources.config().observerIds(),
                Math.max(lastZxid + 1, bus.firstZxid), bus::leaderInTouch);
    }

    @Override
    public PeerSender connect(MemberDriver driver) throws IOException {
        this.driver = driver;
        long myId = resources.config().serverId();
        bus.drivers.put(myId, driver);
        return (to, message) -> bus.deliver(myId, to, message);
    }

    /** The bus's members are fixed. */
    @Override
    public void membersChanged(java.util.Map<Long, QuorumMember> members) {
    }

    @Override
    public void close() {
        if (driver != null) {
            bus.drivers.remove(resources.config().serverId(), driver);
        }
    }
}
