package dev.warden.client;

import dev.warden.protocol.AuthPacket;
import dev.warden.protocol.ConnectResponse;
import dev.warden.protocol.JuteReader;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.ProtocolException;
import dev.warden.protocol.ReplyHeader;
import dev.warden.protocol.SetWatches2;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoop;
import java.net.InetSocketAddress;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connection and session state machine. Everything except {@link #submit}, {@link #addAuth}
 * and {@link #close} runs on the single I/O event loop, so the fields below need no locks.
 * Completions and watch events leave through the {@link SerialExecutor} in wire order.
 */
final class SessionDriver {
    private static final Logger LOG = LoggerFactory.getLogger(SessionDriver.class);
    private static final int SET_WATCHES_CHUNK_BYTES = 128 * 1024;
    private static final long MAX_RECONNECT_BACKOFF_MS = 1000;

    /** AUTHENTICATING: the session is granted, its SASL exchange (if any) is under way; nothing else is sent. */
    private enum Phase { CONNECTING, HANDSHAKING, AUTHENTICATING, CONNECTED, TERMINATED }

    /**
     * The xid of SASL requests and their replies: like auth and setWatches, they are outside
     * the numbered requests, and the server answers them with the xid they came with.
     */
    static final int XID_SASL = -10;

    private final ClientConfig config;
    private final EventLoop loop;
    private final Bootstrap bootstrap;
    private final SerialExecutor completions;
    private final WatchTables watches;
    private final Paths paths;
    private final Outbox outbox;
    private final SessionOutcome outcome;
    private final SessionGrant grant;
    private final SessionTimeouts timeouts;

    // Confined to the event loop.
    private final AuthCredentials credentials;
    private final ReplyRouter replies;
    private final ReadWriteSearch readWriteSearch;
    private final HostProvider hosts;
    private volatile InetSocketAddress connectedServer;
    private Phase phase = Phase.CONNECTING;
    private Channel channel;
    private boolean everConnected;
    private boolean needsFlush;
    private boolean closing;
    private long lastZxid;
    private InetSocketAddress attemptServer;
    private int failedAttemptsInRow;
    private ScheduledFuture<?> tick;
    private ScheduledFuture<?> handshakeTimer;
    /** The SASL exchange of the current connection, while phase is AUTHENTICATING. */
    private SaslLogin sasl;

    SessionDriver(ClientConfig config, EventLoop loop, Bootstrap bootstrap, SerialExecutor completions,
                  WatchTables watches, Paths paths, HostProvider hosts, ClientMetrics metrics, Runnable onTerminated) {
        this.config = config;
        this.loop = loop;
        this.bootstrap = bootstrap;
        this.completions = completions;
        this.watches = watches;
        this.paths = paths;
        this.outcome = new SessionOutcome(completions, metrics, onTerminated);
        this.hosts = hosts;
        this.grant = new SessionGrant(config);
        this.timeouts = new SessionTimeouts(config, grant);
        this.outbox = new Outbox(config.maxOutstandingRequests(), config.maxQueuedRequests());
        this.credentials = new AuthCredentials(completions);
        this.replies = new ReplyRouter(this, outbox, metrics, completions,
                new NotificationRouter(watches, paths, completions), credentials);
        this.readWriteSearch = new ReadWriteSearch(loop, hosts, config.connectTimeoutMs(),
                connection -> channel == connection && phase == Phase.CONNECTED && grant.readOnly());
    }

    // ---- called from any thread ----

    void addListener(StateListener listener) {
        outcome.addListener(listener);
    }

    CompletableFuture<Void> firstConnect() {
        return outcome.firstConnect();
    }

    CompletableFuture<Void> terminated() {
        return outcome.terminated();
    }

    long sessionId() {
        return grant.sessionIdSnapshot();
    }

    /** The server this client has its session through now, if it is connected. */
    Optional<InetSocketAddress> connectedServer() {
        return Optional.ofNullable(connectedServer);
    }

    /** Requests queued in the client or on the wire, not yet answered. */
    int outstandingRequests() {
        return outbox.queuedOrInFlight();
    }

    /**
     * Hands a new server list to the host provider; if it says to move, the connection is
     * dropped and the next attempt goes where it said (the session and its watches come along).
     * Completes with whether the client is moving.
     */
    CompletableFuture<Boolean> updateServerList(java.util.List<InetSocketAddress> servers) {
        CompletableFuture<Boolean> moving = new CompletableFuture<>();
        runOnLoop(() -> {
            if (phase == Phase.TERMINATED) {
                moving.completeExceptionally(outcome.terminalError());
                return;
            }
            InetSocketAddress current = phase == Phase.CONNECTED ? attemptServer : null;
            Optional<InetSocketAddress> target;
            try {
                target = hosts.updateServerList(servers, current);
            } catch (RuntimeException e) {
                moving.completeExceptionally(e);
                return;
            }
            if (target.isPresent() && channel != null) {
                LOG.info("server list changed: moving from {} to {} to balance the load", current, target.get());
                channel.close();
            }
            completions.execute(() -> moving.complete(target.isPresent()));
        }, moving);
        return moving;
    }

    void start() {
        loop.execute(() -> {
            timeouts.started(System.nanoTime());
            long tickMs = Math.max(10, Math.min(1000, config.sessionTimeoutMs() / 10));
            tick = loop.scheduleAtFixedRate(this::onTick, tickMs, tickMs, TimeUnit.MILLISECONDS);
            connectNext();
        });
    }

    /** Queues a request; it is written in submission order once a connection and a slot are free. */
    <T> CompletableFuture<T> submit(Packet<T> packet) {
        if (outcome.terminal()) {
            packet.future.completeExceptionally(outcome.terminalError());
            return packet.future;
        }
        if (!outbox.offer(packet)) {
            packet.future.completeExceptionally(
                    new WardenException.TooManyRequestsException(packet.path, config.maxQueuedRequests()));
            return packet.future;
        }
        if (outbox.claimDrain()) {
            try {
                loop.execute(this::drainInbox);
            } catch (RejectedExecutionException e) {
                failInbox();
            }
        }
        if (outcome.terminal()) {
            failInbox();
        }
        return packet.future;
    }

    CompletableFuture<Void> addAuth(String scheme, byte[] auth) {
        AuthCredentials.Credential credential = new AuthCredentials.Credential(new AuthPacket(0, scheme, auth),
                new CompletableFuture<>());
        runOnLoop(() -> {
            if (phase == Phase.TERMINATED) {
                credential.result().completeExceptionally(outcome.terminalError());
                return;
            }
            credentials.add(credential);
            if (phase == Phase.CONNECTED) {
                credentials.send(credential, this::write);
                flush();
            }
        }, credential.result());
        return credential.result();
    }

    /** Closes the session (closeSession on the wire, bounded by the connect timeout). */
    CompletableFuture<Void> close(Packet<Void> closeSession) {
        runOnLoop(() -> {
            if (phase == Phase.TERMINATED) {
                return;
            }
            if (phase != Phase.CONNECTED) {
                terminate(ConnectionState.CLOSED, new WardenException.ClientClosedException());
                return;
            }
            closing = true;
            outbox.addLast(closeSession);
            drainWaiting();
            flush();
            closeSession.future.whenComplete((ok, error) -> loop.execute(
                    () -> terminate(ConnectionState.CLOSED, new WardenException.ClientClosedException())));
            loop.schedule(() -> terminate(ConnectionState.CLOSED, new WardenException.ClientClosedException()),
                    config.connectTimeoutMs(), TimeUnit.MILLISECONDS);
        }, outcome.terminated());
        return outcome.terminated();
    }

    private void runOnLoop(Runnable task, CompletableFuture<?> failOnReject) {
        try {
            loop.execute(task);
        } catch (RejectedExecutionException e) {
            failOnReject.completeExceptionally(outcome.terminalError());
        }
    }

    private void failInbox() {
        for (Packet<?> packet : outbox.pollInbox()) {
            completions.execute(packet.failure(outcome.terminalError()));
        }
    }

    // ---- event loop ----

    private void drainInbox() {
        outbox.takeInbox();
        if (phase == Phase.TERMINATED) {
            failInbox();
            return;
        }
        drainWaiting();
        flush();
    }

    /** Writes the requests waiting for a slot, once the session is connected. */
    void drainWaiting() {
        if (phase == Phase.CONNECTED) {
            outbox.sendReady(this::write);
        }
    }

    private void write(byte[] frame) {
        channel.write(Unpooled.wrappedBuffer(frame), channel.voidPromise());
        timeouts.sent(System.nanoTime());
        needsFlush = true;
    }

    /** Called at the end of each burst of reads and after each batch of writes. */
    void flush() {
        if (needsFlush && channel != null) {
            needsFlush = false;
            channel.flush();
        }
    }

    private void connectNext() {
        if (phase == Phase.TERMINATED) {
            return;
        }
        phase = Phase.CONNECTING;
        InetSocketAddress readWriteServer = readWriteSearch.takeFound();
        InetSocketAddress address = readWriteServer != null ? readWriteServer : hosts.next();
        attemptServer = address;
        ChannelFuture connecting = bootstrap.attr(ClientTls.PEER, address).connect(address);
        Channel attempt = connecting.channel();
        channel = attempt;
        attempt.closeFuture().addListener(done -> onChannelClosed(attempt));
        handshakeTimer = loop.schedule(() -> {
            if (channel == attempt && phase != Phase.CONNECTED) {
                LOG.debug("no handshake from {} within {} ms", address, config.connectTimeoutMs());
                attempt.close();
            }
        }, config.connectTimeoutMs(), TimeUnit.MILLISECONDS);
        connecting.addListener(done -> {
            if (!done.isSuccess()) {
                attempt.close();
            } else if (channel == attempt && phase == Phase.CONNECTING) {
                sendConnectRequest();
            }
        });
    }

    private void sendConnectRequest() {
        phase = Phase.HANDSHAKING;
        write(Frames.handshake(grant.connectRequest(lastZxid)));
        flush();
    }

    private void onChannelClosed(Channel closed) {
        if (closed != channel) {
            return;
        }
        channel = null;
        connectedServer = null;
        needsFlush = false;
        if (handshakeTimer != null) {
            handshakeTimer.cancel(false);
        }
        if (sasl != null) {
            sasl.dispose();
            sasl = null;
        }
        if (phase == Phase.TERMINATED) {
            return;
        }
        if (closing) {
            terminate(ConnectionState.CLOSED, new WardenException.ClientClosedException());
            return;
        }
        if (phase == Phase.CONNECTED) {
            onDisconnected();
            connectNext();
            return;
        }
        failedAttemptsInRow++;
        long backoffMs = failedAttemptsInRow < hosts.size() ? 0
                : Math.min(MAX_RECONNECT_BACKOFF_MS, 50L * (failedAttemptsInRow / hosts.size()));
        phase = Phase.CONNECTING;
        loop.schedule(() -> {
            if (channel == null) {
                connectNext();
            }
        }, backoffMs, TimeUnit.MILLISECONDS);
    }

    /** The connection dropped: retry what the policy allows, fail the rest, keep the session. */
    private void onDisconnected() {
        phase = Phase.CONNECTING;
        publish(ConnectionState.SUSPENDED);
        // Retried requests go back ahead of everything submitted after them.
        outbox.requeueAfterDisconnect(config.retryPolicy(), System.nanoTime(), packet ->
                completions.execute(packet.failure(new WardenException.ConnectionLossException(
                        packet.path, "connection lost before the reply to " + OpCode.name(packet.opCode)))));
        credentials.failAwaitingReply(
                () -> new WardenException.ConnectionLossException(null, "connection lost before the auth reply"));
    }

    void onFrame(Channel from, byte[] frame) {
        if (from != channel) {
            return;
        }
        timeouts.received(System.nanoTime());
        try {
            JuteReader in = new JuteReader(frame, 0, frame.length, config.maxFrameBytes() * 2);
            if (phase == Phase.HANDSHAKING) {
                onConnectResponse(ConnectResponse.read(in));
            } else if (phase == Phase.CONNECTED || phase == Phase.AUTHENTICATING) {
                onReply(ReplyHeader.read(in), in);
            }
        } catch (ProtocolException e) {
            LOG.warn("malformed frame from the server, dropping the connection: {}", e.getMessage());
            from.close();
        }
    }

    private void onConnectResponse(ConnectResponse response) {
        if (!grant.accept(response)) {
            terminate(ConnectionState.LOST, new WardenException.SessionExpiredException("the server reports the session expired"));
            return;
        }
        if (config.sasl() != null) {
            // the connect timeout (handshakeTimer) still runs: it covers the exchange too
            phase = Phase.AUTHENTICATING;
            sasl = new SaslLogin(this, new ClientSaslExchange(config.sasl(), attemptServer.getHostString(), loop),
                    channel, grant.sessionId());
            sasl.start();
            return;
        }
        sessionReady();
    }

    /** The session is granted and, with SASL, authenticated: requests may flow. */
    private void sessionReady() {
        handshakeTimer.cancel(false);
        boolean first = !everConnected;
        // a read-write session after read-only ones is a new session, not the same one re-attached
        boolean reattached = grant.seenReadWrite() && !grant.readOnly();
        phase = Phase.CONNECTED;
        everConnected = true;
        failedAttemptsInRow = 0;
        hosts.onConnected(attemptServer);
        connectedServer = attemptServer;
        if (grant.readOnly()) {
            LOG.info("read-only session 0x{} on {}: looking for a read-write server",
                    Long.toHexString(grant.sessionId()), attemptServer);
            publish(ConnectionState.CONNECTED_READ_ONLY);
            readWriteSearch.start(channel, attemptServer);
        } else {
            grant.readWriteGranted();
            publish(reattached ? ConnectionState.RECONNECTED : ConnectionState.CONNECTED);
        }
        if (first) {
            outcome.firstConnected();
        }
        credentials.sendAll(this::write);
        for (SetWatches2 chunk : watches.setWatchesChunks(lastZxid, paths::toServer,
                Math.min(SET_WATCHES_CHUNK_BYTES, config.maxFrameBytes() / 2))) {
            write(Frames.request(OpCode.XID_SET_WATCHES, OpCode.SET_WATCHES2, chunk));
        }
        drainWaiting();
        flush();
    }

    /** A SASL reply: the exchange under way takes it; outside one it breaks the connection. */
    void onSaslReply(int err, JuteReader body) {
        if (phase != Phase.AUTHENTICATING || sasl == null) {
            LOG.warn("a SASL reply outside an exchange; dropping the connection");
            channel.close();
            return;
        }
        sasl.onReply(err, body);
    }

    /** Whether {@code attempt} is still the connection whose SASL exchange is under way. */
    boolean authenticating(Channel attempt) {
        return channel == attempt && phase == Phase.AUTHENTICATING;
    }

    /** Writes a frame of the SASL exchange and flushes it. */
    void sendNow(byte[] frame) {
        write(frame);
        flush();
    }

    void saslAuthenticated() {
        sasl = null;
        sessionReady();
    }

    void saslRefused(WardenException failure) {
        terminate(ConnectionState.AUTH_FAILED, failure);
    }

    private void onReply(ReplyHeader header, JuteReader body) {
        if (header.zxid() > 0) {
            lastZxid = header.zxid();
        }
        replies.route(header, body, channel);
    }

    private void onTick() {
        long now = System.nanoTime();
        if (phase == Phase.TERMINATED) {
            return;
        }
        switch (timeouts.due(now, phase == Phase.CONNECTED, everConnected)) {
            case DROP_CONNECTION -> channel.close();
            case PING -> {
                write(Frames.PING.clone());
                flush();
            }
            case SESSION_EXPIRED -> terminate(ConnectionState.LOST, new WardenException.SessionExpiredException(
                    "no server reachable for the session timeout of " + grant.negotiatedTimeoutMs() + " ms"));
            case NO_SESSION -> terminate(ConnectionState.LOST, new WardenException.ConnectionLossException(null,
                    "could not establish a session within " + config.sessionTimeoutMs() + " ms"));
            case NOTHING -> { }
        }
    }

    private void terminate(ConnectionState finalState, WardenException cause) {
        if (phase == Phase.TERMINATED) {
            return;
        }
        phase = Phase.TERMINATED;
        outcome.ending(finalState);
        if (tick != null) {
            tick.cancel(false);
        }
        if (channel != null) {
            channel.close();
            channel = null;
        }
        for (Packet<?> packet : outbox.drainAll()) {
            completions.execute(packet.failure(cause));
        }
        credentials.failAwaitingReply(() -> cause);
        outcome.ended(finalState, cause, grant.sessionId());
    }

    private void publish(ConnectionState state) {
        outcome.publish(state, grant.sessionId());
    }
}
