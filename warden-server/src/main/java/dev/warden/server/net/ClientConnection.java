package dev.warden.server.net;

import dev.warden.protocol.Acl;
import dev.warden.protocol.AuthPacket;
import dev.warden.protocol.ConnectRequest;
import dev.warden.protocol.ConnectResponse;
import dev.warden.protocol.ErrorCode;
import dev.warden.protocol.GetSASLRequest;
import dev.warden.protocol.SetSASLResponse;
import dev.warden.protocol.EventType;
import dev.warden.protocol.Id;
import dev.warden.protocol.JuteReader;
import dev.warden.protocol.JuteWriter;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.ProtocolException;
import dev.warden.protocol.Record;
import dev.warden.protocol.ReplyHeader;
import dev.warden.protocol.RequestHeader;
import dev.warden.server.auth.AclChecker;
import dev.warden.server.auth.AuthIdentities;
import dev.warden.server.auth.Digests;
import dev.warden.server.pipeline.Origin;
import dev.warden.server.pipeline.Preparer;
import dev.warden.server.pipeline.ReplyHeaders;
import dev.warden.server.pipeline.ReadProcessor;
import dev.warden.server.pipeline.Request;
import dev.warden.server.session.SessionTracker;
import dev.warden.server.watch.Watcher;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.WriteBufferWaterMark;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
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
public final class ClientConnection extends ChannelInboundHandlerAdapter implements Origin, Watcher {
    private static final Logger log = LoggerFactory.getLogger(ClientConnection.class);
    /** One per JVM: a flood of malformed frames (a fuzzer, a broken client) becomes two lines a minute. */
    private static final RepeatedWarning MALFORMED = new RepeatedWarning(log, () -> System.nanoTime() / 1_000_000);
    private static final ByteBuf CLOSE_MARKER = Unpooled.EMPTY_BUFFER;
    private static final byte[] NO_PASSWORD = new byte[16];
    private static final java.security.SecureRandom PASSWORDS = new java.security.SecureRandom();
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
    private final Queue<ByteBuf> outbound = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    private final AtomicInteger inFlight = new AtomicInteger();
    private Channel channel;
    private InetAddress address;
    private AuthIdentities identities;
    private volatile long sessionId;
    private volatile int sessionTimeoutMs;
    private boolean handshakeDone;
    /** Closes the connection if no handshake completes in time; event loop only. */
    private ScheduledFuture<?> handshakeDeadline;
    /** This connection's SASL exchange, from its first SASL request on. */
    private SaslExchange saslExchange;
    private boolean awaitingSession;
    /** Clients up to 3.3 omit the handshake's readOnly byte and expect none back. */
    private volatile boolean readOnlyBytePresent = true;
    /**
     * A read-only session on a member cut off from its quorum: reads only, from the local tree,
     * until the member leaves read-only mode and closes the connection. Set before the handshake
     * checks the mode (see ReadOnlyMode).
     */
    private volatile boolean readOnlySession;
    private volatile boolean throttled;
    private volatile boolean closing;
    private volatile long lastZxidSent;
    /** Set when the connection is accepted; cons and crst read and reset it. */
    private volatile ConnectionStats connectionStats = new ConnectionStats(0);
    /** The error code of the last reply sent, read by requestDone right after on the same thread (audit.enable). */
    private int lastReplyXid;
    private int lastReplyError;

    public ClientConnection(ServerContext server, FrameDecoder frames) {
        this.server = server;
        this.frames = frames;
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
        return inFlight.get();
    }

    public long lastZxidSent() {
        return lastZxidSent;
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
        return channel != null && channel.isActive() && channel.config().isAutoRead() && !closing;
    }

    @Override
    public AuthIdentities identities() {
        return identities;
    }

    @Override
    public Watcher watcher() {
        return this;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        channel = ctx.channel();
        connectionStats = new ConnectionStats(server.clock().wallTimeMs());
        InetSocketAddress remote = (InetSocketAddress) channel.remoteAddress();
        address = remote.getAddress();
        identities = new AuthIdentities(address.getHostAddress());
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
        if (saslExchange != null) {
            saslExchange.dispose();
        }
        server.watches().removeWatcher(this);
        server.registry().closed(this, address);
        ByteBuf pending;
        while ((pending = outbound.poll()) != null) {
            pending.release();
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof io.netty.handler.codec.DecoderException
                && cause.getCause() instanceof io.netty.handler.ssl.NotSslRecordException) {
            TlsRefusals.notTls(ctx.channel().remoteAddress());
        } else if (!TlsRefusals.isHandshakeFailure(cause)) {
            log.info("closing {}: {}", ctx.channel().remoteAddress(), cause.toString());
        }
        ctx.close();
    }

    /**
     * A TLS handshake finished: a verified client certificate becomes this connection's x509
     * identity (before any frame of the client is read, so its first request already has it).
     */
    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event instanceof io.netty.handler.ssl.SslHandshakeCompletionEvent done) {
            if (done.isSuccess()) {
                io.netty.handler.ssl.SslHandler tls = ctx.pipeline().get(io.netty.handler.ssl.SslHandler.class);
                X509Login.identify(tls.engine().getSession(), server.config().security().x509(), identities,
                        ctx.channel().remoteAddress());
            } else {
                TlsRefusals.handshakeFailed(ctx.channel().remoteAddress(), done.cause());
            }
        }
        ctx.fireUserEventTriggered(event);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
        if (message instanceof FrameDecoder.FourLetterWord word) {
            if (!closing) {
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
            if (closing) {
                return;
            }
            // valid until this thread decodes its next frame: decoding copies out what it keeps
            frame = FrameScratch.copy(received);
        } finally {
            received.release();
        }
        server.stats().received(4 + length);
        connectionStats.received();
        try {
            if (!handshakeDone) {
                handshake(frame, length);
            } else {
                request(frame, length, moreBehind);
            }
        } catch (ProtocolException e) {
            MALFORMED.warn("closing connection from {}: malformed frame: {}", channel.remoteAddress(), e.getMessage());
            closeNow();
        }
    }

    private void handshake(byte[] frame, int length) {
        if (awaitingSession) {
            throw new ProtocolException("request before the session was established");
        }
        boolean serving = server.pipeline().isServing();
        if (!serving && !server.pipeline().servesReadOnly()) {
            // As ZooKeeper does: a member that is not in sync with a leader takes no sessions
            // (four-letter words still get their answer).
            closeNow();
            return;
        }
        if (!serving) {
            readOnlyHandshake(ConnectRequest.read(reader(frame, length)));
            return;
        }
        if (!server.config().leaderServes() && "leader".equals(server.memberStatus().mode())) {
            // leaderServes=no: the leader keeps to coordination; clients connect to the others
            closeNow();
            return;
        }
        JuteReader in = reader(frame, length);
        ConnectRequest connect = ConnectRequest.read(in);
        server.stats().connectionRequest();
        long lastApplied = server.state().lastAppliedZxid();
        if (connect.lastZxidSeen() > lastApplied) {
            log.info("refusing session 0x{} from {}: client has seen zxid 0x{}, this server only 0x{}",
                    Long.toHexString(connect.sessionId()), channel.remoteAddress(),
                    Long.toHexString(connect.lastZxidSeen()), Long.toHexString(lastApplied));
            closeNow();
            return;
        }
        int timeoutMs = Math.max(server.config().minSessionTimeoutMs(),
                Math.min(server.config().maxSessionTimeoutMs(), connect.timeOutMs()));
        boolean readOnlyPresent = connect.readOnlyPresent();
        readOnlyBytePresent = readOnlyPresent;
        if (connect.sessionId() == 0) {
            awaitingSession = true;
            channel.config().setAutoRead(false);
            inFlight.incrementAndGet();
            server.pipeline().submit(Request.createSession(this, timeoutMs, readOnlyPresent));
            return;
        }
        SessionTracker sessions = server.stateMachine().sessions();
        SessionTracker.Session session = sessions.get(connect.sessionId());
        if (session == null || session.isClosing() || !session.passwordMatches(connect.passwd())
                || !sessions.reattach(connect.sessionId(), timeoutMs)) {
            log.info("session 0x{} from {} is expired or invalid", Long.toHexString(connect.sessionId()),
                    channel.remoteAddress());
            sendFrame(null, ReplyHeaders.noSession(readOnlyPresent));
            closeAfterFlush();
            return;
        }
        server.pipeline().sessionAttached(connect.sessionId());
        establish(connect.sessionId(), timeoutMs, session.password(), readOnlyPresent);
        cancelHandshakeDeadline();
    }

    /**
     * On this connection's event loop: the handshake is done or the connection gone, so its
     * deadline task leaves the loop's timer queue now rather than after the deadline; under a
     * session storm those tasks held thousands of closed connections for the whole timeout.
     */
    private void cancelHandshakeDeadline() {
        if (handshakeDeadline != null) {
            handshakeDeadline.cancel(false);
            handshakeDeadline = null;
        }
    }

    /**
     * A member cut off from its quorum, serving read-only sessions: it takes only clients that
     * asked for read-only. A new session gets an id and password of this member's alone, known to
     * no other member and written nowhere (a client that moves to a read-write member starts a
     * new session there, as ZooKeeper's client does). A client that already holds a session the
     * member's tree knows keeps it, read-only, and nothing about it changes here.
     */
    private void readOnlyHandshake(ConnectRequest connect) {
        readOnlyBytePresent = connect.readOnlyPresent();
        if (!connect.readOnly()) {
            // debug, as the refusals of a member not serving are silent: clients retry this often
            log.debug("refusing session from {}: this member has no quorum and serves read-only sessions only, and"
                    + " the client did not ask for one", channel.remoteAddress());
            closeNow();
            return;
        }
        server.stats().connectionRequest();
        long lastApplied = server.state().lastAppliedZxid();
        if (connect.lastZxidSeen() > lastApplied) {
            log.info("refusing read-only session from {}: client has seen zxid 0x{}, this server only 0x{}",
                    channel.remoteAddress(), Long.toHexString(connect.lastZxidSeen()), Long.toHexString(lastApplied));
            closeNow();
            return;
        }
        readOnlySession = true;
        if (!server.pipeline().servesReadOnly()) {
            closeNow();
            return;
        }
        int timeoutMs = Math.max(server.config().minSessionTimeoutMs(),
                Math.min(server.config().maxSessionTimeoutMs(), connect.timeOutMs()));
        long id = connect.sessionId();
        byte[] password;
        if (id == 0) {
            id = server.stateMachine().sessions().newSessionId();
            password = new byte[NO_PASSWORD.length];
            PASSWORDS.nextBytes(password);
        } else {
            SessionTracker.Session session = server.stateMachine().sessions().get(id);
            if (session == null || session.isClosing() || !session.passwordMatches(connect.passwd())) {
                log.info("read-only session 0x{} from {} is expired or invalid", Long.toHexString(id),
                        channel.remoteAddress());
                sendFrame(null, ReplyHeaders.noSession(readOnlyBytePresent));
                closeAfterFlush();
                return;
            }
            password = session.password();
        }
        log.info("read-only session 0x{} for {}", Long.toHexString(id), channel.remoteAddress());
        establish(id, timeoutMs, password, readOnlyBytePresent);
    }

    /** Called by the applier once the createSession transaction is durable and applied. */
    @Override
    public void sessionCreated(long newSessionId, int timeoutMs, byte[] password) {
        establish(newSessionId, timeoutMs, password, readOnlyBytePresent);
        channel.eventLoop().execute(() -> {
            awaitingSession = false;
            cancelHandshakeDeadline();
            updateAutoRead();
        });
    }

    private void establish(long id, int timeoutMs, byte[] password, boolean readOnlyPresent) {
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
        sendFrame(null, new ConnectResponse(0, timeoutMs, id, password, readOnlySession, readOnlyPresent));
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
            authenticate(header, AuthPacket.read(in));
            return;
        }
        if (opcode == OpCode.SASL) {
            sasl(header, GetSASLRequest.read(in));
            return;
        }
        if (!authenticatedEnough(header)) {
            return;
        }
        if (readOnlySession && !readOnlyAllows(header, receivedNs)) {
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
        if (readOnlySession || (server.pipeline().answersInline(opcode) && inFlight.get() == 0)) {
            // a read-only session's requests are all reads by now, answered here: it has no pipeline
            readInline(request, receivedNs);
            return;
        }
        submit(request);
    }

    /**
     * A read-only session's request that is not a read: a write (or sync) is answered NOTREADONLY,
     * as ZooKeeper's read-only server answers it; closeSession just closes the connection (a
     * session of this member alone ends with it; one of the ensemble's is left to the ensemble).
     * False when the request was answered here.
     */
    private boolean readOnlyAllows(RequestHeader header, long receivedNs) {
        int opcode = header.type();
        Request request = new Request(this, sessionId, header.xid(), opcode, null).receivedAt(receivedNs);
        if (opcode == OpCode.CLOSE_SESSION) {
            sendFrame(ReplyHeaders.of(request, ErrorCode.OK, server.state().lastAppliedZxid()), null);
            closeAfterFlush();
            return false;
        }
        if (ReadOnlyRequests.refused(opcode) || !ReadProcessor.isReadOp(opcode)) {
            sendFrame(ReplyHeaders.of(request, ErrorCode.NOT_READONLY, server.state().lastAppliedZxid()),
                    null);
            answered(request, System.nanoTime() - receivedNs);
            return false;
        }
        return true;
    }

    private void readInline(Request request, long receivedNs) {
        // Queue the reply before releasing the tree: a watch this read sets is fired under the
        // write lock, and its event must not reach the client ahead of the reply that set it.
        // asked under the tree's read lock: once read-only mode has ended (the member found a
        // leader) the tree may be rebuilt, so a read-only session reads nothing more from it and
        // its connection is closed instead of answered
        server.state().answerRead(request, () -> {
                    if (readOnlySession) {
                        if (!server.pipeline().servesReadOnly()) {
                            closeNow();
                            return false;
                        }
                        return true;
                    }
                    return server.stateMachine().sessions().isActive(sessionId);
                }, server.reads(),
                (reply, lastAppliedZxid) -> sendFrame(ReplyHeaders.of(request, reply.error(), lastAppliedZxid),
                        reply.error() == ErrorCode.OK ? reply.body() : null));
        answered(request, System.nanoTime() - receivedNs);
    }

    /** Counts an answered request in the server's and this connection's figures. */
    private void answered(Request request, long latencyNs) {
        server.stats().latency(latencyNs, request.isWrite(), request.opcode == OpCode.PING);
        connectionStats.answered(request.opcode, request.xid, lastZxidSent, latencyNs / 1_000_000,
                System.nanoTime() / 1_000_000);
    }

    private void submit(Request request) {
        inFlight.incrementAndGet();
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
        if (inFlight.get() == 0) {
            sendFrame(ReplyHeaders.of(request, error, server.state().lastAppliedZxid()), null);
            if (thenClose) {
                closeAfterFlush();
            }
            return;
        }
        request.presetError(error, thenClose);
        submit(request);
    }

    private void authenticate(RequestHeader header, AuthPacket auth) {
        String scheme = auth.scheme();
        if ("digest".equals(scheme) && auth.auth() != null) {
            String credentials = new String(auth.auth(), StandardCharsets.UTF_8);
            String id = Digests.idFor(credentials);
            identities.add(new Id("digest", id));
            String superDigest = server.config().superDigest();
            if (superDigest != null && superDigest.equals(id)) {
                identities.add(new Id(AuthIdentities.SUPER_SCHEME, ""));
            }
            sendFrame(new ReplyHeader(header.xid(), 0, 0), null);
        } else if ("ip".equals(scheme)) {
            sendFrame(new ReplyHeader(header.xid(), 0, 0), null);
        } else {
            server.stats().authFailed();
            log.info("closing session 0x{}: authentication failed for scheme {}", Long.toHexString(sessionId), scheme);
            sendFrame(new ReplyHeader(header.xid(), 0, ErrorCode.AUTH_FAILED.code()), null);
            closeAfterFlush();
        }
    }

    /**
     * One step of a SASL exchange, answered at once (outside the pipeline) as in ZooKeeper. A
     * failed step is answered AUTHFAILED (SESSIONCLOSEDREQUIRESASLAUTH where SASL is required)
     * and the connection closed, unless allowSaslFailedClients lets it go on unauthenticated.
     */
    private void sasl(RequestHeader header, GetSASLRequest request) {
        var security = server.config().security();
        if (server.sasl() == null) {
            log.warn("refusing SASL from {} (session 0x{}): SASL is not configured on this server (no JAAS file"
                    + " with a {} section)", channel.remoteAddress(), Long.toHexString(sessionId),
                    security.sasl().serverSection());
            saslFailed(header, false);
            return;
        }
        if (saslExchange == null) {
            saslExchange = new SaslExchange(server.sasl());
        }
        byte[] answer;
        try {
            answer = saslExchange.step(request.token());
        } catch (javax.security.sasl.SaslException failed) {
            // the mechanism's reason names no secret: a wrong password reads "digest response format violation"
            log.warn("SASL {} authentication failed for {} (session 0x{}): {}", saslExchange.mechanism(),
                    channel.remoteAddress(), Long.toHexString(sessionId), failed.getMessage()
                            + (failed.getCause() != null ? " (" + failed.getCause().getMessage() + ")" : ""));
            saslFailed(header, security.sasl().allowFailedClients());
            return;
        }
        if (saslExchange.complete()) {
            String id = saslExchange.authorizedId();
            identities.add(new Id("sasl", id));
            if (id.equals(security.sasl().superUser())) {
                identities.add(new Id(AuthIdentities.SUPER_SCHEME, id));
            }
            log.info("session 0x{} from {} authenticated with SASL {} as {}", Long.toHexString(sessionId),
                    channel.remoteAddress(), saslExchange.mechanism(), id);
            saslExchange.dispose();
        }
        sendFrame(new ReplyHeader(header.xid(), 0, 0), new SetSASLResponse(answer));
    }

    private void saslFailed(RequestHeader header, boolean mayGoOn) {
        var enforcement = server.config().security().enforcement();
        boolean required = enforcement.active() && enforcement.requiredSchemes().contains("sasl");
        if (mayGoOn && !required) {
            log.warn("keeping session 0x{} unauthenticated after its failed SASL exchange (allowSaslFailedClients)",
                    Long.toHexString(sessionId));
            sendFrame(new ReplyHeader(header.xid(), 0, ErrorCode.AUTH_FAILED.code()), null);
            return;
        }
        ErrorCode error = required ? ErrorCode.SESSION_CLOSED_REQUIRE_SASL_AUTH : ErrorCode.AUTH_FAILED;
        sendFrame(new ReplyHeader(header.xid(), 0, error.code()), null);
        closeAfterFlush();
    }

    /**
     * enforce.auth.enabled / sessionRequireClientSASLAuth: a request from a connection holding
     * no identity of a required scheme is answered SESSIONCLOSEDREQUIRESASLAUTH and the
     * connection closed.
     */
    private boolean authenticatedEnough(RequestHeader header) {
        var enforcement = server.config().security().enforcement();
        if (!enforcement.active()) {
            return true;
        }
        for (Id id : identities.ids()) {
            if (enforcement.requiredSchemes().contains(id.scheme())) {
                return true;
            }
        }
        log.warn("closing session 0x{} from {}: {} request before authenticating with one of {}",
                Long.toHexString(sessionId), channel.remoteAddress(), OpCode.name(header.type()),
                enforcement.requiredSchemes());
        sendFrame(new ReplyHeader(header.xid(), 0, ErrorCode.SESSION_CLOSED_REQUIRE_SASL_AUTH.code()), null);
        closeAfterFlush();
        return false;
    }

    // ---- Origin: called from the applier thread -------------------------------------------

    @Override
    public void send(ReplyHeader header, Record body) {
        if (header != null) {
            lastReplyXid = header.xid();
            lastReplyError = header.err();
        }
        sendFrame(header, body);
    }

    @Override
    public void requestDone(Request request) {
        inFlight.decrementAndGet();
        if (server.config().auditEnabled() && request.xid == lastReplyXid) {
            AuditLog.request(sessionId, identities, address.getHostAddress(), request, lastReplyError);
        }
        if (request.receivedNs() != 0) {
            // Writes and queued reads too, as ZooKeeper counts them: without them a write load reads as 0 ms.
            answered(request, System.nanoTime() - request.receivedNs());
        }
    }

    // ---- Watcher: called under the tree's write lock ----------------------------------------

    @Override
    public void process(int eventType, String path, long zxid, List<Acl> aclForReadCheck) {
        if (aclForReadCheck != null && !AclChecker.canRead(aclForReadCheck, identities)) {
            return;
        }
        if (server.traceMask().tracing(TraceMask.WATCH_EVENT)) {
            TraceMask.TRACE.trace("session 0x{}: {} on {} at zxid 0x{}", Long.toHexString(sessionId),
                    EventType.name(eventType), path, Long.toHexString(zxid));
        }
        sendEncoded(NotificationFrames.frame(eventType, path, zxid), zxid);
    }

    // ---- outbound ---------------------------------------------------------------------------

    private void sendFrame(ReplyHeader header, Record body) {
        if (closing) {
            return;
        }
        // sized once: a growing writer copies a 1 KiB getData reply twice before it is sent
        JuteWriter out = new JuteWriter(4 + ReplyHeader.BYTES + (body == null ? 0 : body.sizeHintBytes()));
        out.writeInt(0);
        if (header != null) {
            header.writeTo(out);
            if (header.zxid() > 0) {
                lastZxidSent = header.zxid();
            }
        }
        if (body != null) {
            body.writeTo(out);
        }
        out.setInt(0, out.size() - 4);
        server.stats().responseSize(out.size() - 4);
        enqueue(Unpooled.wrappedBuffer(out.array(), 0, out.size()));
    }

    /** A frame encoded elsewhere (and possibly shared with other connections: only read from it). */
    private void sendEncoded(byte[] frame, long zxid) {
        if (closing) {
            return;
        }
        if (zxid > 0) {
            lastZxidSent = zxid;
        }
        server.stats().responseSize(frame.length - 4);
        enqueue(Unpooled.wrappedBuffer(frame));
    }

    private void enqueue(ByteBuf frame) {
        outbound.add(frame);
        if (drainScheduled.compareAndSet(false, true)) {
            channel.eventLoop().execute(this::drain);
        }
    }

    private void drain() {
        drainScheduled.set(false);
        ByteBuf frame;
        boolean wrote = false;
        while ((frame = outbound.poll()) != null) {
            if (frame == CLOSE_MARKER) {
                closing = true;
                channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(f -> channel.close());
                return;
            }
            channel.write(frame, channel.voidPromise());
            server.stats().sent();
            connectionStats.sent();
            wrote = true;
        }
        if (wrote) {
            channel.flush();
        }
    }

    @Override
    public void closeAfterFlush() {
        if (channel != null) {
            enqueue(CLOSE_MARKER);
        }
    }

    public void closeNow() {
        closing = true;
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

    private JuteReader reader(byte[] frame, int length) {
        return new JuteReader(frame, 0, length, 2 * server.config().juteMaxBuffer());
    }
}
