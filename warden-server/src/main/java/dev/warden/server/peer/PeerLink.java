package dev.warden.server.peer;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.ReferenceCountUtil;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The outbound connection to one port of one peer, with its bounded queue of encoded frames.
 * It keeps reconnecting with backoff until closed. A peer whose server line lists several
 * addresses (one per network) is dialled at one of them: after a failed dial at once the next,
 * and after a lost connection the next too, so a member whose network failed is reached over
 * another; the backoff starts only when every address has failed in a row. With the reachability check the
 * address is chosen by probing them first ({@link ReachabilityProbe}). Frames queued when the
 * connection breaks or cannot be made are dropped and the peer is reported disconnected: the
 * protocol resends what matters, and stale frames arriving on a later connection would only
 * confuse it.
 */
final class PeerLink {
    private static final Logger LOG = LoggerFactory.getLogger(PeerLink.class);

    private final long peerId;
    private final String portName;
    /** The peer's addresses for this port, in its server line's order. */
    private final List<InetSocketAddress> addresses;
    /** The address dialled, or to dial next; I/O thread only. */
    private int current;
    /** Dials failed in a row since the last connection (or the last full round); I/O thread only. */
    private int failedInRow;
    private final PeerTransport transport;
    private final Bootstrap bootstrap;
    private final EventLoop loop;
    private final PeerOptions options;

    // Guarded by this: send() runs on any thread, everything else on the I/O thread.
    private final ArrayDeque<OutboundFrame> queue = new ArrayDeque<>();
    private long queuedBytes;
    private final FrameParts parts = new FrameParts(); // the rest of a large frame goes before the next one
    private Channel channel;
    /** Whether frames may be written to {@link #channel}: not before its SASL exchange is over. */
    private boolean ready;
    private boolean connecting;
    private boolean drainScheduled;
    private boolean closed;
    private long backoffMs;
    /** The redial waiting out the backoff, if any. */
    private ScheduledFuture<?> retry;
    /**
     * When a frame first went out on this connection since the peer last sent anything on this
     * port (System.nanoTime), or 0; I/O thread only. See {@link PeerOptions#silenceLimitMs()}.
     */
    private long unansweredSinceNs;
    /** When a frame last went out on this connection (System.nanoTime); I/O thread only. */
    private long lastWriteNs;
    /** When the current connection was made (System.nanoTime); I/O thread only. */
    private long connectedAtNs;
    /**
     * A connection younger than this is not replaced: the member that gave up its own cannot have
     * closed this one, made since (most likely in answer to its replacing ours, which closes only
     * its outbound end). Without it two members could replace each other's new connections in turn.
     */
    static final long REPLACE_MIN_AGE_MS = 1_000;

    PeerLink(long peerId, String portName, List<InetSocketAddress> addresses, PeerTransport transport,
             Bootstrap template, EventLoop loop, PeerOptions options) {
        this.peerId = peerId;
        this.portName = portName;
        this.addresses = List.copyOf(addresses);
        this.transport = transport;
        OutboundHandler outbound = new OutboundHandler();
        this.bootstrap = template.clone().handler(new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel channel) {
                InetSocketAddress address = address(); // the one being dialled: set before the dial, same thread
                transport.security().tls().installDialled(channel, address);
                if (transport.security().sasl().enabled()) {
                    channel.pipeline().addLast(new OutboundAuth(PeerLink.this, transport, peerId, "member " + peerId
                            + " at " + address + " (" + portName + ")", address.getHostString(),
                            options.helloTimeoutMs()));
                }
                channel.pipeline().addLast(outbound);
            }
        });
        this.loop = loop;
        this.options = options;
        this.backoffMs = options.reconnectMinMs();
    }

    /** Queues a frame; never blocks. On overflow drops the queue, closes the connection, reports. */
    void enqueue(OutboundFrame frame) {
        Channel toClose = null;
        boolean overflow = false;
        boolean drain = false;
        synchronized (this) {
            if (closed) {
                return;
            }
            // A frame is accepted while the queue is under its byte budget, so one large SNAP
            // always fits; the queue's bytes stay below the budget plus one frame.
            if (queue.size() >= options.maxQueuedMessages() || queuedBytes >= options.maxQueuedBytes()) {
                overflow = true;
                clearQueue();
                toClose = channel;
                channel = null; // so its close is not reported a second time
                ready = false;
            } else {
                queue.add(frame);
                queuedBytes += frame.length();
                if (channel != null && !drainScheduled) {
                    drainScheduled = true;
                    drain = true;
                }
            }
        }
        if (overflow) {
            LOG.warn("Outbound queue to member {} ({}) is full; dropping it and the connection", peerId, portName);
            if (toClose != null) {
                toClose.close();
            }
            loop.execute(() -> transport.reportDisconnected(peerId));
        } else if (drain) {
            if (loop.inEventLoop()) {
                transport.drainAfterSend(this); // written before the send returns, with the link's other frames
            } else {
                loop.execute(this::drain);
            }
        }
    }

    /** Moves queued frames into the socket while it is writable, then flushes once. I/O thread. */
    void drain() {
        Channel c;
        synchronized (this) {
            drainScheduled = false;
            c = ready ? channel : null;
        }
        if (c == null) {
            return;
        }
        boolean wrote = false;
        while (c.isWritable()) {
            ByteBuf next;
            synchronized (this) {
                if (c != channel || (next = parts.next()) == null && queue.isEmpty()) {
                    break;
                }
                if (next == null) {
                    OutboundFrame frame = queue.poll();
                    queuedBytes -= frame.length();
                    next = parts.begin(frame);
                }
            }
            c.write(next, c.voidPromise());
            wrote = true;
        }
        if (wrote) {
            c.flush();
            lastWriteNs = System.nanoTime();
            if (unansweredSinceNs == 0) {
                unansweredSinceNs = Math.max(1, lastWriteNs);
            }
        }
    }

    /** The peer sent something on this port: what went out to it was not sent into silence. I/O thread. */
    void heard() {
        unansweredSinceNs = 0;
    }

    /**
     * Closes the connection (a redial follows, as after any lost connection) if frames went out on
     * it {@code limitNs} or more ago, still go out on it (the latest within half the limit), and
     * the peer has sent nothing on this port since the first of them; true if it did. A link that
     * fell idle is left alone: the last votes of an election may go unanswered, and a member that
     * has nothing to say there is not cut off. I/O thread.
     */
    boolean closeIfSilent(long nowNs, long limitNs) {
        if (unansweredSinceNs == 0 || nowNs - unansweredSinceNs < limitNs) {
            return false;
        }
        if (nowNs - lastWriteNs >= limitNs / 2) {
            unansweredSinceNs = 0; // idle: judged afresh from its next frame
            return false;
        }
        unansweredSinceNs = 0;
        Channel c;
        synchronized (this) {
            c = channel;
        }
        if (c == null) {
            return false;
        }
        c.close();
        return true;
    }

    /**
     * Closes the connection, if there is one older than {@link #REPLACE_MIN_AGE_MS}, without
     * reporting the peer disconnected (the caller has), dropping what is queued, and dials again at
     * once. I/O thread.
     */
    void replaceConnection() {
        Channel c;
        synchronized (this) {
            c = channel;
            if (c == null || closed
                    || System.nanoTime() - connectedAtNs < TimeUnit.MILLISECONDS.toNanos(REPLACE_MIN_AGE_MS)) {
                return;
            }
            channel = null; // so its close is not reported again
            ready = false;
            clearQueue();
            backoffMs = options.reconnectMinMs();
            if (retry != null) {
                retry.cancel(false);
                retry = null;
            }
        }
        unansweredSinceNs = 0;
        LOG.info("Replacing the connection to member {} at {} ({}): it gave up its own", peerId, address(), portName);
        c.close();
        connect();
    }

    /** Closes the connection, if there is one; the link dials again as after any lost connection. */
    void dropConnection() {
        Channel c;
        synchronized (this) {
            c = channel;
        }
        if (c != null) {
            c.close();
        }
    }

    /** The address dialled (or to dial next). I/O thread. */
    private InetSocketAddress address() {
        return addresses.get(current);
    }

    /** I/O thread. */
    void connect() {
        synchronized (this) {
            if (closed || connecting || channel != null) {
                return;
            }
            connecting = true;
        }
        ReachabilityProbe probe = transport.reachability();
        if (addresses.size() > 1 && probe != null) {
            List<InetSocketAddress> inOrder = new ArrayList<>(addresses.size());
            for (int i = 0; i < addresses.size(); i++) {
                inOrder.add(addresses.get((current + i) % addresses.size()));
            }
            int from = current;
            probe.firstReachable(inOrder, chosen -> {
                try {
                    loop.execute(() -> dial((from + chosen) % addresses.size()));
                } catch (java.util.concurrent.RejectedExecutionException shutDown) {
                    // the member is stopping: its loop takes no more work, and no dial is wanted
                }
            });
        } else {
            dial(current);
        }
    }

    /** Dials address {@code index}. I/O thread. */
    private void dial(int index) {
        synchronized (this) {
            if (closed) {
                connecting = false;
                return;
            }
        }
        current = index;
        bootstrap.connect(address()).addListener((ChannelFuture f) -> connected(f));
    }

    private void connected(ChannelFuture f) {
        InetSocketAddress address = address();
        if (!f.isSuccess()) {
            boolean dropped;
            synchronized (this) {
                connecting = false;
                dropped = !queue.isEmpty();
                clearQueue();
            }
            LOG.debug("Cannot connect to member {} at {} ({}): {}", peerId, address, portName, f.cause().toString());
            if (dropped) {
                transport.reportDisconnected(peerId);
            }
            failedInRow++;
            if (addresses.size() > 1) {
                current = (current + 1) % addresses.size();
                if (failedInRow < addresses.size()) {
                    LOG.debug("Trying member {} at its next address {} ({})", peerId, address(), portName);
                    connect(); // another network may still reach it: no backoff until every address failed
                    return;
                }
            }
            failedInRow = 0;
            retryLater();
            return;
        }
        failedInRow = 0;
        connectedAtNs = System.nanoTime();
        Channel c = f.channel();
        boolean stillWanted;
        synchronized (this) {
            connecting = false;
            stillWanted = !closed;
            if (stillWanted) {
                channel = c;
                ready = !transport.security().sasl().enabled();
                backoffMs = options.reconnectMinMs();
            }
        }
        if (!stillWanted) {
            c.close();
            return;
        }
        // The channel is published before the hello is written, so whoever sees the hello also
        // sees a link with a connection: an overflow from then on closes this connection. The
        // hello still goes first: a drain runs on the event loop, after this callback returns.
        boolean sasl = transport.security().sasl().enabled();
        c.writeAndFlush(PeerWire.hello(transport.myId(), sasl ? PeerWire.SASL : 0), c.voidPromise());
        c.closeFuture().addListener(closed -> disconnected(c));
        LOG.info("Connected to member {} at {} ({})", peerId, address, portName);
        OutboundAuth auth = c.pipeline().get(OutboundAuth.class);
        if (auth != null) {
            auth.begin(); // the link sends once the exchange is over
        } else {
            drain();
        }
    }

    /** The SASL exchange on {@code c} is over (or was let go): frames may flow. I/O thread. */
    void authenticated(Channel c) {
        synchronized (this) {
            if (c != channel) {
                return;
            }
            ready = true;
        }
        drain();
    }

    private void disconnected(Channel c) {
        InetSocketAddress address = address();
        unansweredSinceNs = 0;
        boolean report;
        synchronized (this) {
            report = c == channel;
            if (report) {
                channel = null;
                ready = false;
                clearQueue();
            }
        }
        if (report) {
            LOG.info("Lost the connection to member {} at {} ({})", peerId, address, portName);
            transport.reportDisconnected(peerId);
        }
        if (addresses.size() > 1) {
            // The network under that address may be what failed (a reset, or a relay that takes the
            // connection and drops it): the next dial goes to the next address, and comes back
            // here after a failed round.
            current = (current + 1) % addresses.size();
        }
        retryLater();
    }

    private void retryLater() {
        long delayMs;
        synchronized (this) {
            if (closed) {
                return;
            }
            delayMs = backoffMs;
            backoffMs = Math.min(backoffMs * 2, options.reconnectMaxMs());
            retry = loop.schedule(this::connect, delayMs, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Dials now instead of at the end of the backoff: the member has just connected to us, so it
     * is up again. Without this, a restarted member's vote reached the others at once but their
     * answers waited for their redial, up to the longest backoff (2 s), and so did its rejoining.
     */
    void redialNow() {
        synchronized (this) {
            if (closed || connecting || channel != null) {
                return;
            }
            backoffMs = options.reconnectMinMs();
            if (retry != null) {
                retry.cancel(false);
                retry = null;
            }
        }
        loop.execute(this::connect);
    }

    void close() {
        Channel c;
        synchronized (this) {
            closed = true;
            clearQueue();
            c = channel;
            channel = null;
        }
        if (c != null) {
            c.close();
        }
    }

    private void clearQueue() {
        queue.clear();
        queuedBytes = 0;
        parts.clear();
    }

    /** Resumes draining when the socket accepts data again; outbound connections receive nothing. */
    @ChannelHandler.Sharable // one per link, added to each of its successive connections
    private final class OutboundHandler extends ChannelInboundHandlerAdapter {
        /** The last connection that sent anything; I/O thread only. */
        private Channel talkedBack;

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            if (ctx.channel().isWritable()) {
                drain();
            }
            ctx.fireChannelWritabilityChanged();
        }

        /**
         * A member never sends on a connection it accepted, so whatever arrives here is not ours
         * to read: it is released as it comes (no decoder, nothing buffered), with one WARN per
         * connection. The connection stays: it still carries this member's messages.
         */
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ReferenceCountUtil.release(msg);
            if (talkedBack != ctx.channel()) {
                talkedBack = ctx.channel();
                LOG.warn("Member {} at {} ({}) sends bytes on a connection that only carries messages to it; "
                        + "discarding them (is it a Warden member of this version?)", peerId, address(), portName);
            }
        }

        /**
         * A failed TLS handshake (the member's certificate is not trusted or names another
         * host, it refused ours, or it closed the connection because its port does not take
         * TLS) is worth a WARN: it repeats at every redial until someone fixes a certificate or
         * a setting, so it goes through the rate-limited refusal log.
         */
        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
            if (event instanceof SslHandshakeCompletionEvent done && !done.isSuccess()) {
                Throwable cause = done.cause();
                String reason = cause instanceof SSLException ? PeerInbound.tlsFailure(cause)
                        : "the connection closed during the TLS handshake (does that member's " + portName
                        + " take TLS? it needs sslQuorum=true or portUnification=true)";
                transport.refusals().refused(LOG, "Cannot connect to member " + peerId + " at " + address() + " ("
                        + portName + "): " + reason);
                ctx.close();
            }
            ctx.fireUserEventTriggered(event);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            Throwable reason = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
            if (!(reason instanceof SSLException)) { // those are reported with the handshake's outcome
                LOG.debug("Connection to member {} ({}) failed: {}", peerId, portName, cause.toString());
            }
            ctx.close();
        }
    }
}
