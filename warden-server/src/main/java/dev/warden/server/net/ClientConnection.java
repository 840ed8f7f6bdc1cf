package dev.warden.server.net;

import dev.warden.protocol.Acl;
import dev.warden.protocol.AuthPacket;
import dev.warden.protocol.ConnectResponse;
import dev.warden.protocol.ErrorCode;
import dev.warden.protocol.EventType;
import dev.warden.protocol.GetSASLRequest;
import dev.warden.protocol.JuteReader;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.ProtocolException;
import dev.warden.protocol.Record;
import dev.warden.protocol.ReplyHeader;
import dev.warden.protocol.RequestHeader;
import dev.warden.state.auth.AclChecker;
import dev.warden.state.auth.AuthIdentities;
import dev.warden.state.pipeline.Origin;
import dev.warden.state.pipeline.ReplyHeaders;
import dev.warden.state.pipeline.Request;
import dev.warden.state.watch.WatchRecipient;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.WriteBufferWaterMark;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client connection. Reads run right here on the network thread when the session has
 * nothing in flight (they see every earlier request of the session applied); otherwise they
 * queue behind the session's writes in the pipeline, which keeps replies in request order.
 *
 * Every outbound frame — replies from this thread or the applier, and watch events — goes
 * through one ordered queue, so an event queued while a transaction is applied always leaves
 * before any reply that could show that transaction's data.
 *
 * <p>The queue is a hand-over to this connection's event loop, which moves everything queued
 * into the socket's outbound buffer at its next turn. That buffer is bounded by back-pressure
 * on the client: above {@link #OUTBOUND_HIGH_WATER_BYTES} not yet written to the socket the
 * connection stops being read, and it is read again once under {@link #OUTBOUND_LOW_WATER_BYTES},
 * as a client that does not read its replies should not be able to send more requests. So the
 * queue holds at most the high-water mark, the replies to the requests already read and the
 * events of the watches the session set. No reply or event is ever dropped.
 */
public final class ClientConnection extends ChannelInboundHandlerAdapter implements Origin, WatchRecipient {
    private static final Logger log = LoggerFactory.getLogger(ClientConnection.class);
    private static final VarHandle IN_FLIGHT = FieldHandles.of(MethodHandles.lookup(), "inFlight", int.class);
    /** One per JVM: a flood of malformed frames (a fuzzer, a broken client) becomes two lines a minute. */
    private static final RepeatedWarning MALFORMED = new RepeatedWarning(log, () -> System.nanoTime() / 1_000_000);
    /** Bytes waiting for the socket above which the client is no longer read. */
    public static final int OUTBOUND_HIGH_WATER_BYTES = 1 << 20;
    /** Bytes waiting for the socket below which a client held back by them is read again. */
    public static final int OUTBOUND_LOW_WATER_BYTES = 256 << 10;
    /** The two marks, for the client port's channels. */
    public static final WriteBufferWaterMark OUTBOUND_WATER_MARK =
            new WriteBufferWaterMark(OUTBOUND_LOW_WATER_BYTES, OUTBOUND_HIGH_WATER_BYTES);

    private final ServerContext server;
    /** This connection's frame decoder: it says whether more of the client's bytes follow a frame. */
    private final FrameDecoder frames;
    /** Every reply and event, in order, on its way to the socket. */
    private final OutboundFrames outbound;
    /** Made by the first addauth or SASL request: most connections never send one. Event loop only. */
    private ClientAuthentication authentication;
    private volatile int inFlight; // through IN_FLIGHT: requests in the pipeline
    private Channel channel;
    private InetAddress address;
    private AuthIdentities identities;
    private volatile long sessionId;
    private volatile int sessionTimeoutMs;
    private boolean handshakeDone;
    /** Closes the connection if no handshake completes in time; event loop only. */
    private ScheduledFuture<?> handshakeDeadline;
    private boolean awaitingSession;
    /** Requests pipelined behind the ConnectRequest, made on first use; event loop only. */
    private HeldRequests held;
    /** Clients up to 3.3 omit the handshake's readOnly byte and expect none back. */
    private volatile boolean readOnlyBytePresent = true;
    /**
     * A read-only session on a member cut off from its quorum: reads only, from the local tree,
     * until the member leaves read-only mode and closes the connection. Set before the handshake
     * checks the mode (see ReadOnlyMode).
     */
    private volatile boolean readOnlySession;
    private volatile boolean throttled;
    /** Set when the connection is accepted; cons and crst read and reset it. */
    private volatile ConnectionStats connectionStats = new ConnectionStats(0);
    /** The error code of the last reply sent, read by requestDone right after on the same thread (audit.enable). */
    private int lastReplyXid;
    private int lastReplyError;

    public ClientConnection(ServerContext server, FrameDecoder frames) {
        this.server = server;
        this.frames = frames;
        this.outbound = new OutboundFrames(server, this);
    }

    public long sessionId() {
        return sessionId;
    }

    public int sessionTimeoutMs() {
        return sessionTimeoutMs;
    }

    public String remoteAddress() {
        return String.valueOf(channel == null ? "?" : channel.remoteAddress());
    }

    public int inFlight() {
        return inFlight;
    }

    public long lastZxidSent() {
        return outbound.lastZxidSent();
    }

    /** True for a read-only session's connection (readonlymode.enabled). */
    boolean readOnlySession() {
        return readOnlySession;
    }

    ConnectionStats connectionStats() {
        return connectionStats;
    }

    /** Whether the connection is read from now (ZooKeeper's interest ops in cons: 1 read, 0 none). */
    boolean reading() {
        return channel != null && channel.isActive() && channel.config().isAutoRead() && !outbound.closing();
    }

    @Override
    public AuthIdentities identities() {
        return identities;
    }

    @Override
    public WatchRecipient watcher() {
        return this;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        channel = ctx.channel();
        outbound.attach(channel);
        connectionStats = new ConnectionStats(server.clock().wallTimeMs());
        InetSocketAddress remote = (InetSocketAddress) channel.remoteAddress();
        address = remote.getAddress();
        identities = new AuthIdentities(server.registry().addressIdentity(address));
        if (server.config().skipAcl()) {
            identities.skipAclChecks();
        }
        if (!server.registry().tryOpen(this, address)) {
            server.stats().connectionRejected();
            log.warn("refusing connection from {}: maxClientCnxns ({}) reached", address.getHostAddress(),
                    server.config().maxClientCnxns());
            channel.close();
            return;
        }
        long timeoutMs = server.config().sessionlessConnectionTimeoutMs();
        handshakeDeadline = channel.eventLoop().schedule(() -> {
            if (!handshakeDone && channel.isActive()) {
                server.stats().sessionlessConnectionExpired();
                log.info("closing {}: no handshake within {} ms", remote, timeoutMs);
                channel.close();
            }
        }, timeoutMs, TimeUnit.MILLISECONDS);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        cancelHandshakeDeadline();
        if (authentication != null) {
            authentication.dispose();
        }
        server.watches().removeWatcher(this);
        server.registry().closed(this, address);
        outbound.releaseAll();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ClientChannelEvents.failed(ctx, cause);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        ClientChannelEvents.userEvent(ctx, event, server, identities);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
        if (message instanceof FrameDecoder.FourLetterWord word) {
            if (!outbound.closing()) {
                server.stats().received(4);
                connectionStats.received();
                byte[] text = FourLetterWords.respond(word, server).getBytes(StandardCharsets.UTF_8);
                ctx.writeAndFlush(Unpooled.wrappedBuffer(text)).addListener(f -> ctx.close());
            }
            return;
        }
        ByteBuf received = (ByteBuf) message;
        boolean moreBehind = frames.takeFrame();
        int length = received.readableBytes();
        byte[] frame;
        try {
            if (outbound.closing()) {
                return;
            }
            // valid until this thread decodes its next frame: decoding copies out what it keeps
            frame = FrameScratch.copy(received);
        } finally {
            received.release();
        }
        server.stats().received(4 + length);
        connectionStats.received();
        dispatch(frame, length, moreBehind);
    }

    /** A frame's way: held while the session is made, the handshake, or a request. */
    private void dispatch(byte[] frame, int length, boolean moreBehind) {
        try {
            if (outbound.closing()) {
                return;
            } else if (awaitingSession) {
                held = held != null ? held : new HeldRequests(2 * server.config().juteMaxBuffer());
                held.hold(frame, length);
            } else if (!handshakeDone) {
                new ClientHandshake(server, this).handshake(frame, length);
            } else {
                request(frame, length, moreBehind);
            }
        } catch (ProtocolException e) {
            MALFORMED.warn("closing connection from {}: malformed frame: {}", channel.remoteAddress(), e.getMessage());
            closeNow();
        }
    }

    /**
     * On this connection's event loop: the handshake is done or the connection gone, so its
     * deadline task leaves the loop's timer queue now rather than after the deadline; under a
     * session storm those tasks held thousands of closed connections for the whole timeout.
     */
    void cancelHandshakeDeadline() {
        if (handshakeDeadline != null) {
            handshakeDeadline.cancel(false);
            handshakeDeadline = null;
        }
    }

    /** The client's address as the channel gives it, for log lines. */
    java.net.SocketAddress peer() {
        return channel.remoteAddress();
    }

    /**
     * Asks the pipeline for a new session; the client is not read until it exists
     * ({@link #sessionCreated}), and requests already read wait for it in {@link HeldRequests}.
     */
    void awaitNewSession(int timeoutMs, boolean readOnlyPresent) {
        awaitingSession = true;
        channel.config().setAutoRead(false);
        IN_FLIGHT.getAndAdd(this, 1);
        server.pipeline().submit(Request.createSession(this, timeoutMs, readOnlyPresent));
    }

    boolean readOnlyBytePresent() {
        return readOnlyBytePresent;
    }

    void readOnlyBytePresent(boolean present) {
        readOnlyBytePresent = present;
    }

    /** Marks the connection as a read-only session's, before the handshake checks the mode (see ReadOnlyMode). */
    void markReadOnlySession() {
        readOnlySession = true;
    }

    /** Called by the applier once the createSession transaction is durable and applied. */
    @Override
    public void sessionCreated(long newSessionId, int timeoutMs, byte[] password) {
        establish(newSessionId, timeoutMs, password, readOnlyBytePresent);
        channel.eventLoop().execute(() -> {
            awaitingSession = false;
            cancelHandshakeDeadline();
            if (held != null) {
                held.serveAll(this::dispatch);
                held = null;
            }
            updateAutoRead();
        });
    }

    void establish(long id, int timeoutMs, byte[] password, boolean readOnlyPresent) {
        if (server.traceMask().tracing(TraceMask.SESSION)) {
            TraceMask.TRACE.trace("session 0x{} established for {} with timeout {} ms", Long.toHexString(id),
                    channel.remoteAddress(), timeoutMs);
        }
        sessionId = id;
        sessionTimeoutMs = timeoutMs;
        handshakeDone = true;
        ClientConnection previous = server.registry().bind(id, this);
        if (previous != null) {
            previous.closeAfterFlush();
        }
        server.stateMachine().sessions().touch(id);
        sendReply(null, new ConnectResponse(0, timeoutMs, id, password, readOnlySession, readOnlyPresent));
    }

    private void request(byte[] frame, int length, boolean moreBehind) {
        JuteReader in = reader(frame, length);
        RequestHeader header = RequestHeader.read(in);
        long receivedNs = System.nanoTime();
        server.stateMachine().sessions().touch(sessionId);
        int opcode = header.type();
        long kind = opcode == OpCode.PING ? TraceMask.CLIENT_PING : TraceMask.CLIENT_REQUEST;
        if (server.traceMask().tracing(kind)) {
            TraceMask.TRACE.trace("session 0x{} from {}: {} xid {}", Long.toHexString(sessionId),
                    channel.remoteAddress(), OpCode.name(opcode), header.xid());
        }
        if (opcode == OpCode.AUTH) {
            authentication().authenticate(header, AuthPacket.read(in));
            return;
        }
        if (opcode == OpCode.SASL) {
            authentication().sasl(header, GetSASLRequest.read(in));
            return;
        }
        if (!ClientAuthentication.authenticatedEnough(server, this, header)) {
            return;
        }
        if (readOnlySession && !InlineAnswers.readOnlyAllows(server, this, header, receivedNs)) {
            return;
        }
        if (!RequestBodies.isSupported(opcode)) {
            log.info("closing session 0x{}: unsupported opcode {}", Long.toHexString(sessionId), opcode);
            Request request = new Request(this, sessionId, header.xid(), opcode, null);
            routeError(request, ErrorCode.UNIMPLEMENTED, true);
            return;
        }
        Record body;
        try {
            body = RequestBodies.decode(opcode, in);
        } catch (ProtocolException e) {
            log.info("session 0x{}: undecodable {} request: {}", Long.toHexString(sessionId), OpCode.name(opcode),
                    e.getMessage());
            routeError(new Request(this, sessionId, header.xid(), opcode, null), ErrorCode.MARSHALLING_ERROR, false);
            return;
        }
        Request request = new Request(this, sessionId, header.xid(), opcode, body).receivedAt(receivedNs)
                .markMoreBehind(moreBehind);
        if (readOnlySession || (server.pipeline().answersInline(opcode) && inFlight == 0)) {
            // a read-only session's requests are all reads by now, answered here: it has no pipeline
            InlineAnswers.readInline(server, this, request, receivedNs);
            return;
        }
        submit(request);
    }

    private ClientAuthentication authentication() {
        if (authentication == null) {
            authentication = new ClientAuthentication(server, this);
        }
        return authentication;
    }

    /** Counts an answered request in the server's and this connection's figures. */
    void answered(Request request, long latencyNs) {
        server.stats().latency(latencyNs, request.isWrite(), request.opcode == OpCode.PING);
        connectionStats.answered(request.opcode, request.xid, outbound.lastZxidSent(), latencyNs / 1_000_000,
                System.nanoTime() / 1_000_000);
    }

    private void submit(Request request) {
        IN_FLIGHT.getAndAdd(this, 1);
        if (!server.pipeline().submit(request)) {
            throttled = true;
            server.registry().pause(this);
            updateAutoRead();
            // The pipeline may have drained below the limit before we registered as paused, in
            // which case nobody else would resume us.
            if (!server.pipeline().isOverLimit()) {
                server.registry().resumeAll();
            }
        }
    }

    /** Sends an error in request order: straight away if nothing is in flight, else via the pipeline. */
    private void routeError(Request request, ErrorCode error, boolean thenClose) {
        if (inFlight == 0) {
            sendReply(ReplyHeaders.of(request, error, server.state().lastAppliedZxid()), null);
            if (thenClose) {
                closeAfterFlush();
            }
            return;
        }
        request.presetError(error, thenClose);
        submit(request);
    }

    // ---- Origin: called from the applier thread -------------------------------------------

    @Override
    public void send(ReplyHeader header, Record body) {
        if (header != null) {
            lastReplyXid = header.xid();
            lastReplyError = header.err();
        }
        sendReply(header, body);
    }

    @Override
    public void requestDone(Request request) {
        IN_FLIGHT.getAndAdd(this, -1);
        if (server.config().auditEnabled() && request.xid == lastReplyXid) {
            AuditLog.request(sessionId, identities, address.getHostAddress(), request, lastReplyError);
        }
        if (request.receivedNs() != 0) {
            // Writes and queued reads too, as ZooKeeper counts them: without them a write load reads as 0 ms.
            answered(request, System.nanoTime() - request.receivedNs());
        }
    }

    // ---- WatchRecipient: called under the tree's write lock -------------------------------

    @Override
    public void process(int eventType, String path, long zxid, List<Acl> aclForReadCheck) {
        if (aclForReadCheck != null && !AclChecker.canRead(aclForReadCheck, identities)) {
            return;
        }
        if (server.traceMask().tracing(TraceMask.WATCH_EVENT)) {
            TraceMask.TRACE.trace("session 0x{}: {} on {} at zxid 0x{}", Long.toHexString(sessionId),
                    EventType.name(eventType), path, Long.toHexString(zxid));
        }
        outbound.sendEncoded(NotificationFrames.frame(eventType, path, zxid), zxid);
    }

    // ---- outbound ---------------------------------------------------------------------------

    /** Queues a reply (a header, a body, or both) behind everything queued before. */
    void sendReply(ReplyHeader header, Record body) {
        outbound.send(header, body);
    }

    @Override
    public void closeAfterFlush() {
        if (channel != null) {
            outbound.closeAfterFlush();
        }
    }

    public void closeNow() {
        outbound.markClosing();
        if (channel != null) {
            channel.close();
        }
    }

    void resumeReading() {
        channel.eventLoop().execute(() -> {
            throttled = false;
            updateAutoRead();
        });
    }

    /** The socket took enough (or too little) of what waits for it: read the client again, or stop. */
    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        updateAutoRead();
        ctx.fireChannelWritabilityChanged();
    }

    private void updateAutoRead() {
        boolean read = !awaitingSession && !throttled && channel.isWritable();
        if (channel.config().isAutoRead() != read) {
            channel.config().setAutoRead(read);
        }
    }

    JuteReader reader(byte[] frame, int length) {
        return new JuteReader(frame, 0, length, 2 * server.config().juteMaxBuffer());
    }
}
