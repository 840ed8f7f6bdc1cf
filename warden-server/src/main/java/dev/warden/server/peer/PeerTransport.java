package dev.warden.server.peer;

import dev.warden.consensus.Outbound;
import dev.warden.consensus.ZabMessage;
import dev.warden.server.config.QuorumMember;
import dev.warden.server.net.RefusalLog;
import dev.warden.server.threads.ServerThreads;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries {@link ZabMessage}s between ensemble members over TCP (Netty, NIO, one I/O thread).
 *
 * <p>Each member dials one outbound connection to each port of every other member and only
 * sends on it; connections it accepts only receive. So there is no tie-breaking between
 * duplicate connections: a member that restarts simply dials again, and a newer inbound
 * connection from a member replaces the older one. Votes travel to a peer's election port,
 * everything else to its peer port, so both configured ports are in use.
 *
 * <p>{@link #send} is thread-safe and never blocks: it encodes on the caller's thread and
 * queues the frame on a per-destination bounded queue. A full queue closes that connection and
 * reports the peer disconnected. Called on the I/O thread itself, it writes the frames to the
 * sockets before it returns (the member's driver runs there). Callbacks to the
 * {@link PeerHandler} come on the single I/O thread, so they are ordered; none come after
 * {@link #close}.
 */
public final class PeerTransport implements PeerSender, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PeerTransport.class);
    static final String PEER_PORT = "peer port";
    static final String ELECTION_PORT = "election port";


    private final long myId;
    /** Every member links go to and connections are taken from; replaced whole by {@link #updateMembers}. */
    private volatile Map<Long, QuorumMember> members;
    private final Bootstrap template;
    private final PeerHandler handler;
    private final PeerOptions options;
    private final PeerSecurity security;
    private final EventLoopGroup group;
    /** Whether {@link #close} shuts the group down: not when it belongs to the member's driver. */
    private final boolean ownsGroup;
    private final EventLoop loop;
    /** Links given frames by a send on the I/O thread, written out when that send returns. */
    private final ArrayDeque<PeerLink> toDrain = new ArrayDeque<>();
    /** Concurrent: {@link #updateMembers} changes them on the I/O thread while others may send. */
    private final Map<Long, PeerLink> peerLinks = new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<Long, PeerLink> electionLinks = new java.util.concurrent.ConcurrentHashMap<>();
    /** Current inbound connection per "id/port name"; changed on the I/O thread only, read anywhere. */
    private final Map<String, Channel> inbound = new java.util.concurrent.ConcurrentHashMap<>();
    private final List<Channel> listeners = new ArrayList<>();
    /** Where SASL steps run, off the I/O thread; null without quorum SASL. */
    private final java.util.concurrent.ExecutorService saslSteps;
    /** Why accepted connections were closed, rate limited: anyone who reaches the ports can cause it. */
    private final RefusalLog refusals = RefusalLog.standard();
    private volatile boolean closed;
    /** The periodic {@link #closeSilentLinks}, with a silence limit. */
    private java.util.concurrent.ScheduledFuture<?> silenceCheck;
    /** quorumListenOnAllIPs: listen on every address, not only the host of this member's server line. */
    private boolean listenOnAllAddresses;
    /** multiAddress.reachabilityCheckEnabled: how links to members with several addresses pick one; else null. */
    private volatile ReachabilityProbe reachability;

    /** A transport with its own I/O thread. */
    public PeerTransport(long myId, Map<Long, QuorumMember> members, PeerHandler handler, PeerOptions options) {
        this(myId, members, handler, options, PeerSecurity.NONE);
    }

    /** A transport with its own I/O thread, protecting its connections as {@code security} says. */
    PeerTransport(long myId, Map<Long, QuorumMember> members, PeerHandler handler, PeerOptions options,
                  PeerSecurity security) {
        this(myId, members, handler, options, security, ServerThreads.eventLoops("warden-peers-" + myId, 1), true);
    }

    /**
     * A transport whose connections live on the single thread of {@code group}, which the caller
     * keeps and shuts down after {@link #close}, protecting them as {@code security} says.
     */
    public PeerTransport(long myId, Map<Long, QuorumMember> members, PeerHandler handler, PeerOptions options,
                  PeerSecurity security, EventLoopGroup group) {
        this(myId, members, handler, options, security, group, false);
    }

    private PeerTransport(long myId, Map<Long, QuorumMember> members, PeerHandler handler, PeerOptions options,
                          PeerSecurity security, EventLoopGroup group, boolean ownsGroup) {
        this.security = security;
        this.saslSteps = security.sasl().enabled() ? ServerThreads.single("warden-quorum-sasl-" + myId) : null;
        this.group = group;
        this.ownsGroup = ownsGroup;
        this.loop = group.next();
        if (!members.containsKey(myId)) {
            throw new IllegalArgumentException("member " + myId + " is not in " + members.keySet());
        }
        this.myId = myId;
        this.members = Map.copyOf(members);
        this.handler = handler;
        this.options = options;
        this.template = new Bootstrap().group(group).channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true).option(ChannelOption.SO_KEEPALIVE, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.max(1_000, options.reconnectMaxMs()))
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(1 << 20, 4 << 20));
        for (QuorumMember member : this.members.values()) {
            if (member.id() != myId) {
                addLinks(member);
            }
        }
    }

    private void addLinks(QuorumMember member) {
        List<InetSocketAddress> peerAddresses = new ArrayList<>();
        List<InetSocketAddress> electionAddresses = new ArrayList<>();
        for (QuorumMember.PeerAddress address : member.addresses()) {
            peerAddresses.add(new InetSocketAddress(address.host(), address.peerPort()));
            electionAddresses.add(new InetSocketAddress(address.host(), address.electionPort()));
        }
        peerLinks.put(member.id(), new PeerLink(member.id(), PEER_PORT, peerAddresses, this, template, loop, options));
        electionLinks.put(member.id(), new PeerLink(member.id(), ELECTION_PORT, electionAddresses, this, template,
                loop, options));
    }

    /**
     * The ensemble's members changed (a configuration change logged, committed or undone): links
     * are dialled to members that are new or moved, and closed to members that are gone, whose
     * connections are then refused. This member's own line (its listening ports) stays as it was
     * started. Any thread; done on the I/O thread.
     */
    public void updateMembers(Map<Long, QuorumMember> updated) {
        Map<Long, QuorumMember> next = new HashMap<>(updated);
        next.put(myId, members.get(myId));
        loop.execute(() -> {
            if (closed) {
                return;
            }
            Map<Long, QuorumMember> before = members;
            members = Map.copyOf(next);
            for (QuorumMember old : before.values()) {
                QuorumMember now = next.get(old.id());
                if (old.id() != myId && (now == null || !sameAddresses(old, now))) {
                    PeerLink peer = peerLinks.remove(old.id());
                    PeerLink election = electionLinks.remove(old.id());
                    peer.close();
                    election.close();
                    for (String portName : List.of(PEER_PORT, ELECTION_PORT)) {
                        Channel from = inbound.remove(old.id() + "/" + portName);
                        if (from != null) {
                            from.close();
                        }
                    }
                    reportDisconnected(old.id());
                }
            }
            for (QuorumMember member : next.values()) {
                if (member.id() != myId && !peerLinks.containsKey(member.id())) {
                    addLinks(member);
                    peerLinks.get(member.id()).connect();
                    electionLinks.get(member.id()).connect();
                }
            }
        });
    }

    private static boolean sameAddresses(QuorumMember a, QuorumMember b) {
        return a.addresses().equals(b.addresses());
    }

    /**
     * quorumListenOnAllIPs=true, as in ZooKeeper: the peer and election ports listen on every
     * address of the machine (0.0.0.0), not only on the host of this member's server line; the
     * others still dial that host. Call before {@link #start()}.
     */
    public void listenOnAllAddresses() {
        listenOnAllAddresses = true;
    }

    /**
     * multiAddress.reachabilityCheckEnabled=true: before dialling a member whose line lists
     * several addresses, the first of them that answers a reachability probe of at most
     * {@code timeoutMs} is chosen ({@link ReachabilityProbe}). Without it the addresses are
     * dialled in turn. Call before {@link #start()}.
     */
    public void checkReachability(int timeoutMs) {
        reachability = new ReachabilityProbe(myId, timeoutMs);
    }

    /** The probe that picks an address of a member with several; null without the reachability check. */
    ReachabilityProbe reachability() {
        return reachability;
    }

    /**
     * Listens on this member's peer and election ports, on every address of its server line (one
     * per network with multi-address lines), and starts dialling the others.
     */
    public void start() throws InterruptedException {
        QuorumMember self = members.get(myId);
        java.util.Set<String> bound = new java.util.HashSet<>();
        try {
            for (QuorumMember.PeerAddress address : self.addresses()) {
                String host = listenOnAllAddresses ? "0.0.0.0" : address.host();
                // with quorumListenOnAllIPs two addresses sharing a port are one listener
                if (bound.add(host + ":" + address.peerPort())) {
                    listeners.add(listen(host, address.peerPort(), PEER_PORT));
                }
                if (bound.add(host + ":" + address.electionPort())) {
                    listeners.add(listen(host, address.electionPort(), ELECTION_PORT));
                }
            }
        } catch (RuntimeException | InterruptedException e) {
            close();
            throw e;
        }
        loop.execute(() -> {
            peerLinks.values().forEach(PeerLink::connect);
            electionLinks.values().forEach(PeerLink::connect);
        });
        if (options.silenceLimitMs() > 0) {
            long everyMs = Math.max(10, options.silenceLimitMs() / 4);
            silenceCheck = loop.scheduleAtFixedRate(this::closeSilentLinks, everyMs, everyMs, TimeUnit.MILLISECONDS);
        }
    }

    private Channel listen(String host, int port, String portName) throws InterruptedException {
        ServerBootstrap server = new ServerBootstrap().group(group, group).channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true).childOption(ChannelOption.SO_KEEPALIVE, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        security.tls().installAccepted(ch);
                        PeerFrameDecoder frames = new PeerFrameDecoder(options.maxFrameBytes());
                        ch.pipeline().addLast(frames);
                        ch.pipeline().addLast(new PeerInbound(PeerTransport.this, portName, frames,
                                options.helloTimeoutMs()));
                    }
                });
        Channel channel;
        try {
            channel = server.bind(new InetSocketAddress(host, port)).sync().channel();
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) { // Netty rethrows the bind's BindException unchecked
            throw new java.io.UncheckedIOException(new java.io.IOException("cannot listen on " + host + ":" + port
                    + ", the " + portName + " of server." + myId + " (its server." + myId + " line): " + e.getMessage()
                    + (e instanceof java.net.BindException ? "; another process (or another member) holds that port:"
                    + " stop it or change the port on every member's server." + myId + " line" : ""), e));
        }
        LOG.info("Member {} listening on {} ({}, {})", myId, channel.localAddress(), portName, security.tls().describeAccept());
        return channel;
    }

    /**
     * Queues {@code message} for {@code peerId}; never blocks. A message larger than
     * {@link PeerOptions#maxFrameBytes()} is dropped and the peer reported disconnected.
     */
    @Override
    public void send(long peerId, ZabMessage message) {
        send(peerId, message, OutboundFrame.of(message));
        drainNow();
    }

    /**
     * Encodes each run of equal consecutive messages once: a leader's batch sends the same
     * PROPOSE (and COMMIT) to every follower, and each encoding copies every entry's payload.
     * Links only read the frames they queue, so one array can sit in several queues.
     */
    @Override
    public void sendAll(List<Outbound> messages) {
        ZabMessage previous = null;
        OutboundFrame previousFrame = null;
        for (Outbound outbound : messages) {
            ZabMessage message = outbound.message();
            OutboundFrame frame = message.equals(previous) ? previousFrame : OutboundFrame.of(message);
            send(outbound.to(), message, frame);
            previous = message;
            previousFrame = frame;
        }
        drainNow();
    }

    /** I/O thread: a link has frames to write once the current send returns. */
    void drainAfterSend(PeerLink link) {
        toDrain.add(link);
    }

    /** Writes out what a send on the I/O thread queued: one flush per link per send. */
    private void drainNow() {
        if (!loop.inEventLoop()) {
            return;
        }
        PeerLink link;
        while ((link = toDrain.poll()) != null) {
            link.drain();
        }
    }

    private void send(long peerId, ZabMessage message, OutboundFrame frame) {
        PeerLink link = (message instanceof ZabMessage.Vote ? electionLinks : peerLinks).get(peerId);
        if (link == null) {
            // not (or no longer) a member of any configuration this member knows: like a failed dial,
            // the core hears the link is down and does not count on the message
            LOG.debug("Member {}: no link to member {} for a {}", myId, peerId, message.getClass().getSimpleName());
            loop.execute(() -> reportDisconnected(peerId));
            return;
        }
        if (frame.length() > options.maxFrameBytes()) {
            LOG.error("Dropping a {} of {} bytes for member {}: above the frame limit of {} bytes",
                    message.getClass().getSimpleName(), frame.length(), peerId, options.maxFrameBytes());
            loop.execute(() -> reportDisconnected(peerId));
            return;
        }
        link.enqueue(frame);
    }

    long myId() {
        return myId;
    }

    PeerSecurity security() {
        return security;
    }

    /** The thread SASL steps run on; only with quorum SASL. */
    java.util.concurrent.Executor saslSteps() {
        return saslSteps;
    }

    /** The server line of member {@code id}. */
    QuorumMember member(long id) {
        return members.get(id);
    }

    RefusalLog refusals() {
        return refusals;
    }

    boolean isPeer(long id) {
        return id != myId && members.containsKey(id);
    }

    /** A frame came from member {@code from} on {@code portName}. I/O thread. */
    void heard(long from, String portName) {
        PeerLink link = (PEER_PORT.equals(portName) ? peerLinks : electionLinks).get(from);
        if (link != null) {
            link.heard();
        }
    }

    /**
     * Closes both connections on a port with each member that has sent nothing there for the
     * silence limit after frames went to it, so that they are dialled afresh. I/O thread.
     */
    private void closeSilentLinks() {
        long nowNs = System.nanoTime();
        long limitNs = TimeUnit.MILLISECONDS.toNanos(options.silenceLimitMs());
        for (Map<Long, PeerLink> links : List.of(peerLinks, electionLinks)) {
            for (Map.Entry<Long, PeerLink> e : links.entrySet()) {
                String portName = links == peerLinks ? PEER_PORT : ELECTION_PORT;
                if (e.getValue().closeIfSilent(nowNs, limitNs)) {
                    LOG.info("Member {} sent nothing on the {} for {} ms after frames went to it: connecting to it"
                            + " afresh on both ports", e.getKey(), portName, options.silenceLimitMs());
                    Channel from = inbound.get(e.getKey() + "/" + portName);
                    if (from != null) {
                        from.close();
                    }
                    // The other port's connections cross the same network: an idle one kept through a
                    // partition holds frames TCP resends only at its backed-off retransmission, seconds
                    // after the network heals, and the next frame would queue behind them.
                    closeConnections(e.getKey(), links == peerLinks ? ELECTION_PORT : PEER_PORT);
                }
            }
        }
    }

    @Override
    public java.util.Optional<InetSocketAddress> connectedFrom(long peerId) {
        Channel from = inbound.get(peerId + "/" + PEER_PORT);
        return from != null && from.remoteAddress() instanceof InetSocketAddress address
                ? java.util.Optional.of(address) : java.util.Optional.empty();
    }

    @Override
    public void dropConnections(long peerId) {
        loop.execute(() -> {
            LOG.info("Member {}: closing the connections with member {} on the peer port, as asked", myId, peerId);
            closeConnections(peerId, PEER_PORT);
        });
    }

    /** Closes both connections with {@code member} on {@code portName}; each side dials again. I/O thread. */
    private void closeConnections(long member, String portName) {
        PeerLink outbound = (PEER_PORT.equals(portName) ? peerLinks : electionLinks).get(member);
        if (outbound != null) {
            outbound.dropConnection();
        }
        Channel from = inbound.get(member + "/" + portName);
        if (from != null) {
            from.close();
        }
    }

    void deliver(long from, ZabMessage message) {
        if (!closed) {
            handler.onMessage(from, message);
        }
    }

    void reportDisconnected(long peer) {
        if (!closed) {
            handler.onDisconnected(peer);
        }
    }

    /** A hello arrived; a still-open older connection from the same member and port is retired. */
    void inboundOpened(long from, String portName, Channel channel, PeerInbound state) {
        Channel older = inbound.put(from + "/" + portName, channel);
        LOG.info("Member {} connected from {} ({})", from, channel.remoteAddress(), portName);
        PeerLink outbound = (ELECTION_PORT.equals(portName) ? electionLinks : peerLinks).get(from);
        if (outbound != null) {
            outbound.redialNow();
        }
        if (older != null && older != channel) {
            PeerInbound olderState = older.pipeline().get(PeerInbound.class);
            if (olderState != null) {
                olderState.replaced = true;
            }
            older.close();
            // Reported here, before the new connection delivers anything, to keep events in order.
            reportDisconnected(from);
            // It gave up a connection we still held, so it closed its end of ours too (or restarted);
            // if that close was lost in a partition, ours holds frames TCP resends only at its
            // backed-off retransmission, seconds after the heal. Replaced now, reported above.
            if (outbound != null) {
                outbound.replaceConnection();
            }
        }
    }

    void inboundClosed(long from, String portName, Channel channel) {
        if (inbound.remove(from + "/" + portName, channel)) {
            LOG.info("Member {} disconnected ({})", from, portName);
        }
        reportDisconnected(from);
    }

    @Override
    public void close() {
        closed = true;
        if (silenceCheck != null) {
            silenceCheck.cancel(false);
        }
        peerLinks.values().forEach(PeerLink::close);
        electionLinks.values().forEach(PeerLink::close);
        for (Channel listener : listeners) {
            listener.close();
        }
        ReachabilityProbe probe = reachability;
        if (probe != null) {
            probe.close();
        }
        if (saslSteps != null) {
            saslSteps.shutdownNow();
        }
        if (ownsGroup) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        } else {
            // The connections close on the shared loop; wait until it has got that far.
            if (!loop.inEventLoop() && !loop.isShuttingDown()) {
                try {
                    loop.submit(() -> { }).await(1, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (RejectedExecutionException shutDown) {
                    // the loop is gone, and its connections with it
                }
            }
        }
    }
}
