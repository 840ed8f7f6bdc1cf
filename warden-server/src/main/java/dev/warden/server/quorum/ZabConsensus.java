package dev.warden.server.quorum;

import dev.warden.consensus.SnapshotSource;
import dev.warden.consensus.ZabConfig;
import dev.warden.consensus.ZabMessage;
import dev.warden.consensus.ZabPeer;
import dev.warden.server.config.QuorumMember;
import dev.warden.server.config.ServerConfig;
import dev.warden.server.peer.PeerHandler;
import dev.warden.server.peer.PeerOptions;
import dev.warden.server.peer.PeerSecurity;
import dev.warden.server.peer.PeerSender;
import dev.warden.server.peer.PeerTransport;
import java.io.IOException;
import java.security.SecureRandom;
import java.util.Map;

/** The production consensus: a Zab core over the member's log, and TCP links to the peers. */
public final class ZabConsensus implements ConsensusFactory {
    /** Entries per Propose/Inform/DIFF message: big enough to batch, small enough to stay under frame limits. */
    private static final int MAX_ENTRIES_PER_MESSAGE = 1000;
    /** The peer links' limits; the sync diff cap is derived from the same queue budget. */
    private static final PeerOptions PEER_OPTIONS = PeerOptions.defaults();
    private final Resources resources;
    private final PeerSecurity security;
    private volatile PeerTransport transport;

    /** Reads the members' key and trust stores now: a bad one stops the member before it serves. */
    public ZabConsensus(Resources resources) {
        this.resources = resources;
        this.security = peerSecurity(resources.config());
    }

    private static PeerSecurity peerSecurity(ServerConfig config) {
        try {
            return PeerSecurity.of(config.security(), config.members().values());
        } catch (IllegalArgumentException bad) {
            String message = bad.getMessage() == null ? "" : bad.getMessage();
            String key = message.startsWith("quorum.auth.") ? message.substring(0, message.indexOf(':'))
                    : message.contains("JAAS") || message.contains("login") ? "java.security.auth.login.config"
                    : "ssl.quorum.keyStore.location";
            throw new dev.warden.server.config.ConfigException(key, message, bad);
        }
    }

    /** The core's configuration, from zoo.cfg. */
    public static ZabConfig zabConfig(ServerConfig config) {
        long tickMs = config.tickTimeMs();
        // Two ticks: long enough for a round of votes on a loaded machine, short enough to fail over fast.
        long electionTimeoutMs = 2 * tickMs;
        return new ZabConfig(config.serverId(), config.voterIds(), config.observerIds(), tickMs,
                config.initLimitTicks(), config.syncLimitTicks(), electionTimeoutMs, MAX_ENTRIES_PER_MESSAGE,
                maxSyncDiffBytes(PEER_OPTIONS), config.observer().masterPort() > 0, config.observer().reconnectDelayMs());
    }

    /**
     * Most log bytes one follower is synced with before it gets a snapshot instead: a quarter of
     * a peer link's queue budget (so 64 MiB with a heap of 2 GiB or more, 8 MiB with 256 MiB),
     * so the diff and the writes proposed while it drains fit, and what the leader reads for it
     * stays a small part of its heap.
     */
    static long maxSyncDiffBytes(PeerOptions peerOptions) {
        return peerOptions.maxQueuedBytes() / 4;
    }

    /**
     * How long a connection accepted on the peer or election port may take to send its hello:
     * syncLimit ticks, the time ZooKeeper gives its quorum connections to say who they are. A
     * member sends its hello as soon as it has connected, so only a stranger takes that long.
     */
    static long helloTimeoutMs(ServerConfig config) {
        return (long) config.tickTimeMs() * config.syncLimitTicks();
    }

    /**
     * How long a member may send nothing on a port after frames went to it there before the
     * connections with it on that port are dialled afresh: initLimit ticks (syncLimit if that is
     * longer), the longest a member may take to answer in Zab, a synchronization included. A member
     * cut off by a network that drops packets is then, when the network heals, reached over new
     * connections at once, not over old ones whose retransmissions have backed off for seconds.
     */
    static long silenceLimitMs(ServerConfig config) {
        return (long) config.tickTimeMs() * Math.max(config.initLimitTicks(), config.syncLimitTicks());
    }

    @Override
    public ConsensusCore core(SnapshotSource snapshots, long nowMs) throws IOException {
        ZabPeer peer = new ZabPeer(zabConfig(resources.config()), resources.epochs(), resources.logView(), snapshots,
                new SecureRandom(), nowMs, resources.resyncRequired(), resources.configurations(),
                ReconfigEntries.INSTANCE);
        return new ZabCore(peer);
    }

    @Override
    public PeerSender connect(MemberDriver driver) throws IOException {
        ServerConfig config = resources.config();
        PeerTransport started = new PeerTransport(config.serverId(), config.members(), new PeerHandler() {
            @Override
            public void onMessage(long from, ZabMessage message) {
                driver.peerMessage(from, message);
            }

            @Override
            public void onDisconnected(long peer) {
                driver.peerDisconnected(peer);
            }
        }, PEER_OPTIONS.withHelloTimeoutMs(helloTimeoutMs(config)).withSilenceLimitMs(silenceLimitMs(config)), security, driver.eventLoopGroup());
        if (config.quorumListenOnAllIPs()) {
            started.listenOnAllAddresses();
        }
        if (config.multiAddress().enabled() && config.multiAddress().reachabilityCheckEnabled()) {
            started.checkReachability(config.multiAddress().reachabilityCheckTimeoutMs());
        }
        try {
            started.start();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            started.close();
            throw new IOException("interrupted while opening the peer ports", e);
        } catch (RuntimeException e) {
            started.close();
            throw new IOException("cannot open the peer ports of member " + config.serverId() + ": " + e.getMessage(), e);
        }
        transport = started;
        return started;
    }

    @Override
    public void membersChanged(Map<Long, QuorumMember> members) {
        PeerTransport current = transport;
        if (current != null) {
            current.updateMembers(members);
        }
    }

    @Override
    public void close() {
        PeerTransport current = transport;
        if (current != null) {
            current.close();
        }
    }
}
