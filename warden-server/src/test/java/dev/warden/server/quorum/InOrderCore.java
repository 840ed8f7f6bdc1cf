package dev.warden.server.quorum;

import dev.warden.consensus.Entry;
import dev.warden.consensus.Outbound;
import dev.warden.consensus.Ready;
import dev.warden.consensus.Received;
import dev.warden.consensus.Role;
import dev.warden.consensus.RoleChange;
import dev.warden.consensus.ZabMessage;
import dev.warden.consensus.Zxid;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;

/** The core of an {@link InOrderBus} member: commits on proposal, no elections. */
final class InOrderCore implements ConsensusCore {
    private final long myId;
    private final long leaderId;
    private final Set<Long> others = new TreeSet<>();
    private final Role role;
    private long nextZxid;
    private boolean started;
    private RoleChange roleChange;
    private List<Outbound> sendImmediately = new ArrayList<>();
    private List<Entry> toPersist = new ArrayList<>();
    private List<Entry> committed = new ArrayList<>();
    private List<Received> received = new ArrayList<>();
    private List<Long> syncsDone = new ArrayList<>();
    private long committedZxid;
    private long truncateAfterZxid = -1;

    /** Whether the leader hears from a quorum now; tests cut it off through the bus. */
    private final BooleanSupplier inTouch;

    InOrderCore(long myId, long leaderId, Set<Long> voters, Set<Long> observers, long nextZxid,
                BooleanSupplier inTouch) {
        this.myId = myId;
        this.inTouch = inTouch;
        this.leaderId = leaderId;
        others.addAll(voters);
        others.addAll(observers);
        others.remove(myId);
        this.role = myId == leaderId ? Role.LEADING : observers.contains(myId) ? Role.OBSERVING : Role.FOLLOWING;
        this.nextZxid = nextZxid;
        this.configurations = dev.warden.consensus.Configurations.of(configurationOf(voters, observers));
    }

    /**
     * The members as a configuration with member lines, as a server's core carries it; the
     * addresses are placeholders (the bus delivers by id, and its members never change).
     */
    private static dev.warden.consensus.Configuration configurationOf(Set<Long> voters, Set<Long> observers) {
        StringBuilder text = new StringBuilder();
        java.util.TreeSet<Long> all = new java.util.TreeSet<>(voters);
        all.addAll(observers);
        for (long id : all) {
            text.append("server.").append(id).append("=127.0.0.1:").append(20_000 + 2 * id).append(':')
                    .append(20_001 + 2 * id).append(observers.contains(id) ? ":observer" : ":participant").append('\n');
        }
        return dev.warden.server.config.EnsembleConfig.parse(text.toString(), 0, "the in-order double").toConfiguration();
    }

    /** The double's members never change: it has no configuration entries and takes no change. */
    private final dev.warden.consensus.Configurations configurations;

    @Override
    public dev.warden.consensus.ReconfigCheck checkReconfig(dev.warden.consensus.Configuration proposed) {
        return dev.warden.consensus.ReconfigCheck.NOT_LEADER;
    }

    @Override
    public dev.warden.consensus.Configurations configurations() {
        return configurations;
    }

    @Override
    public long configurationChanges() {
        return 0;
    }

    @Override
    public void tick(long nowMs) {
        if (!started) {
            started = true;
            roleChange = new RoleChange(role, leaderId, Zxid.epoch(nextZxid), true);
        }
    }

    @Override
    public void receive(long fromId, ZabMessage message) {
        if (message instanceof ZabMessage.Inform inform) {
            toPersist.addAll(inform.entries());
            committed.addAll(inform.entries());
            committedZxid = inform.entries().get(inform.entries().size() - 1).zxid();
        } else if (message instanceof ZabMessage.Propose propose) {
            // logged, never committed here (see InOrderBus.logOnly)
            toPersist.addAll(propose.entries());
        } else if (message instanceof ZabMessage.AppData data) {
            received.add(new Received(fromId, data.payload()));
        } else if (message instanceof ZabMessage.SyncRequest sync) {
            sendImmediately.add(new Outbound(fromId, new ZabMessage.SyncReply(sync.token(), committedZxid)));
        } else if (message instanceof ZabMessage.Trunc trunc) {
            // Tests inject a TRUNC to drive the member's truncate-and-rebuild path.
            truncateAfterZxid = trunc.toZxid();
        } else if (message instanceof ZabMessage.SyncReply reply) {
            syncsDone.add(reply.token());
        }
    }

    @Override
    public void peerDisconnected(long peerId) {
    }

    @Override
    public boolean propose(long zxid, byte[] payload) {
        if (role != Role.LEADING || zxid != nextZxid) {
            throw new IllegalStateException("proposal 0x" + Long.toHexString(zxid) + ", expected 0x"
                    + Long.toHexString(nextZxid));
        }
        nextZxid = Zxid.counter(zxid) == Zxid.MAX_COUNTER ? Zxid.of(Zxid.epoch(zxid) + 1, 1) : zxid + 1;
        Entry entry = new Entry(zxid, payload);
        toPersist.add(entry);
        committed.add(entry);
        committedZxid = zxid;
        for (long other : others) {
            sendImmediately.add(new Outbound(other, new ZabMessage.Inform(List.of(entry))));
        }
        return true;
    }

    @Override
    public long nextZxid() {
        return role == Role.LEADING && started ? nextZxid : -1;
    }

    @Override
    public boolean sendToLeader(byte[] payload) {
        if (role == Role.LEADING) {
            received.add(new Received(myId, payload));
        } else {
            sendImmediately.add(new Outbound(leaderId, new ZabMessage.AppData(payload)));
        }
        return true;
    }

    @Override
    public boolean sendTo(long peerId, byte[] payload) {
        sendImmediately.add(new Outbound(peerId, new ZabMessage.AppData(payload)));
        return true;
    }

    @Override
    public boolean sync(long token) {
        if (role == Role.LEADING) {
            syncsDone.add(token);
        } else {
            sendImmediately.add(new Outbound(leaderId, new ZabMessage.SyncRequest(token)));
        }
        return true;
    }

    @Override
    public boolean leaderHeardQuorumWithin(long windowMs) {
        return role == Role.LEADING && started && inTouch.getAsBoolean();
    }

    @Override
    public Role role() {
        return role;
    }

    @Override
    public long leaderId() {
        return leaderId;
    }

    @Override
    public boolean isServing() {
        return started;
    }

    @Override
    public long committedZxid() {
        return committedZxid;
    }

    @Override
    public void abandonHistory() {
        throw new UnsupportedOperationException("the in-order test core has no elections to resynchronize through");
    }

    @Override
    public boolean isResyncRequired() {
        return false;
    }

    @Override
    public boolean hasReady() {
        return roleChange != null || truncateAfterZxid >= 0 || !sendImmediately.isEmpty() || !toPersist.isEmpty() || !committed.isEmpty()
                || !received.isEmpty() || !syncsDone.isEmpty();
    }

    @Override
    public Ready ready() {
        Ready ready = new Ready(roleChange, sendImmediately, null, truncateAfterZxid, null, toPersist, List.of(),
                committed, received, syncsDone);
        roleChange = null;
        truncateAfterZxid = -1;
        sendImmediately = new ArrayList<>();
        toPersist = new ArrayList<>();
        committed = new ArrayList<>();
        received = new ArrayList<>();
        syncsDone = new ArrayList<>();
        return ready;
    }

    @Override
    public void advance(Ready ready) {
    }
}
