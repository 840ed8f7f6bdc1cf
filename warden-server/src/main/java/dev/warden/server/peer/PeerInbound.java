package dev.warden.server.peer;

import dev.warden.consensus.ZabCodec;
import dev.warden.consensus.ZabMessage;
import dev.warden.protocol.ProtocolException;
import dev.warden.server.net.FrameScratch;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.ssl.NotSslRecordException;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import java.util.Arrays;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One accepted connection from a peer: the first frame must be a hello naming a known member,
 * then, if the hello asks for it or this member requires it, a SASL exchange must authenticate
 * it, all within the hello timeout; every later frame is a message from it. Anything malformed
 * closes the connection. Until the hello is accepted, {@link PeerFrameDecoder} takes no frame
 * but a hello's, during the exchange only tokens of bounded size; accepting the member lets the
 * decoder take frames up to the transport's limit. The member counts as connected (and replaces
 * an older connection of its own) only once it is accepted, so a stranger who fails to
 * authenticate cannot cut the real member off.
 */
final class PeerInbound extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(PeerInbound.class);

    private final PeerTransport transport;
    private final String portName;
    private final PeerFrameDecoder frames;
    private final long helloTimeoutMs;
    private long from = -1;
    /** Whether the member was accepted: the transport was told of this connection. */
    private boolean opened;
    /** The SASL exchange under way, or null. */
    private InboundAuth auth;
    private ScheduledFuture<?> helloDeadline;
    /** Set when a newer connection from the same member took over; its close is then not news. */
    boolean replaced;

    PeerInbound(PeerTransport transport, String portName, PeerFrameDecoder frames, long helloTimeoutMs) {
        this.transport = transport;
        this.portName = portName;
        this.frames = frames;
        this.helloTimeoutMs = helloTimeoutMs;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        // An absolute deadline, not an idle timer: a stranger trickling a byte at a time keeps
        // a connection busy but never finishes a hello.
        helloDeadline = ctx.executor().schedule(() -> {
            if (!opened && ctx.channel().isActive()) {
                refuse(ctx, from < 0 ? "no hello within " + helloTimeoutMs + " ms"
                        : "no SASL authentication within " + helloTimeoutMs + " ms");
            }
        }, helloTimeoutMs, TimeUnit.MILLISECONDS);
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf frame = (ByteBuf) msg;
        int length = frame.readableBytes();
        byte[] body;
        try {
            // a follower would otherwise allocate a copy of every PROPOSE batch
            body = FrameScratch.copy(frame);
        } finally {
            frame.release();
        }
        if (!ctx.channel().isOpen()) {
            return; // frames already decoded when a bad one closed the connection
        }
        try {
            if (from < 0) {
                hello(ctx, PeerWire.readHello(Arrays.copyOf(body, length)));
                return;
            }
            if (!opened) {
                authenticate(ctx, Arrays.copyOf(body, length));
                return;
            }
            ZabMessage message = ZabCodec.decode(body, 0, length);
            transport.heard(from, portName);
            transport.deliver(from, message);
        } catch (ProtocolException bad) {
            refuse(ctx, bad.getMessage());
        }
    }

    private void hello(ChannelHandlerContext ctx, PeerWire.Hello hello) {
        long sender = hello.sender();
        if (!transport.isPeer(sender)) {
            throw new ProtocolException("hello from " + sender + ", which is not another member of the ensemble");
        }
        String certificateProblem = transport.security().tls()
                .diallerCertificateProblem(ctx.channel(), transport.member(sender));
        if (certificateProblem != null) {
            throw new ProtocolException("hello from member " + sender + " refused: " + certificateProblem);
        }
        from = sender;
        PeerSasl sasl = transport.security().sasl();
        if (hello.wantsSasl() && sasl.enabled()) {
            auth = new InboundAuth(sasl.servers(), transport.saslSteps());
            frames.authenticating();
        } else if (hello.wantsSasl()) {
            ctx.writeAndFlush(PeerWire.authReply(PeerWire.AuthStatus.NOT_OFFERED, ("member " + transport.myId()
                    + " has quorum.auth.enableSasl=false").getBytes(java.nio.charset.StandardCharsets.UTF_8)));
            open(ctx);
        } else if (sasl.serverRequireSasl()) {
            throw new ProtocolException("member " + sender + " did not authenticate, and this member has"
                    + " quorum.auth.serverRequireSasl=true (is quorum.auth.enableSasl=true on member " + sender + "?)");
        } else {
            open(ctx);
        }
    }

    /** One SASL token from the dialler; the answer goes back when the SASL thread has it. */
    private void authenticate(ChannelHandlerContext ctx, byte[] token) {
        auth.step(token, ctx.executor(), outcome -> {
            if (!ctx.channel().isActive()) {
                return;
            }
            switch (outcome.status()) {
                case CHALLENGE -> ctx.writeAndFlush(PeerWire.authReply(outcome.status(), outcome.reply()));
                case SUCCESS -> {
                    ctx.writeAndFlush(PeerWire.authReply(outcome.status(), outcome.reply()));
                    LOG.info("Member {} at {} authenticated as {} ({}, {})", from, ctx.channel().remoteAddress(),
                            outcome.identity(), auth.mechanism(), portName);
                    open(ctx);
                }
                default -> authenticationFailed(ctx, outcome);
            }
        });
    }

    /**
     * The member failed to authenticate: it is told why (the mechanism's words, no credential)
     * and, with {@code quorum.auth.serverRequireSasl}, shut out; without it, it is taken
     * unauthenticated, as in ZooKeeper, so a rolling switch to SASL loses no member.
     */
    private void authenticationFailed(ChannelHandlerContext ctx, InboundAuth.Outcome outcome) {
        String reason = "SASL authentication (" + auth.mechanism() + ") failed: "
                + new String(outcome.reply(), java.nio.charset.StandardCharsets.UTF_8);
        if (transport.security().sasl().serverRequireSasl()) {
            logRefusal(ctx, reason + " (quorum.auth.serverRequireSasl=true: it can neither vote nor send anything)");
            ctx.writeAndFlush(PeerWire.authReply(outcome.status(), outcome.reply()))
                    .addListener(io.netty.channel.ChannelFutureListener.CLOSE);
            return;
        }
        ctx.writeAndFlush(PeerWire.authReply(outcome.status(), outcome.reply()));
        transport.refusals().refused(LOG, "Taking the " + portName + " connection from " + ctx.channel().remoteAddress()
                + " (member " + from + ") unauthenticated: " + reason + " (quorum.auth.serverRequireSasl=false)");
        open(ctx);
    }

    /** The member is accepted: its messages count, and it replaces an older connection of its own. */
    private void open(ChannelHandlerContext ctx) {
        opened = true;
        if (helloDeadline != null) {
            helloDeadline.cancel(false);
        }
        frames.helloAccepted();
        transport.inboundOpened(from, portName, ctx.channel(), this);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (helloDeadline != null) {
            helloDeadline.cancel(false);
        }
        if (auth != null) {
            auth.dispose();
        }
        if (opened && !replaced) {
            transport.inboundClosed(from, portName, ctx.channel());
        }
        ctx.fireChannelInactive();
    }

    /**
     * A TLS handshake that failed is reported here, once: the handler closes the connection
     * right after, so the exception that follows finds it closed. A connection closed by the
     * other end during the handshake is not worth a WARN (a port scan does that).
     */
    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event instanceof SslHandshakeCompletionEvent done && !done.isSuccess()) {
            Throwable cause = done.cause();
            if (cause instanceof NotSslRecordException) {
                refuse(ctx, "not a TLS connection, and this " + portName + " takes TLS only (a member without"
                        + " sslQuorum=true? while members switch, set portUnification=true)");
            } else if (cause instanceof SSLException) {
                refuse(ctx, tlsFailure(cause));
            } else {
                LOG.debug("The {} connection from {} closed during the TLS handshake: {}", portName,
                        ctx.channel().remoteAddress(), String.valueOf(cause));
                ctx.close();
            }
        }
        ctx.fireUserEventTriggered(event);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // A frame length the decoder refused lands here, as do resets by the peer.
        if (!ctx.channel().isActive()) {
            return; // already closed and reported
        }
        Throwable reason = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
        io.netty.handler.ssl.SslHandler tls = ctx.pipeline().get(io.netty.handler.ssl.SslHandler.class);
        if (reason instanceof SSLException && (tls == null || !tls.handshakeFuture().isSuccess())) {
            ctx.close(); // a failed handshake is reported with its outcome
            return;
        }
        refuse(ctx, reason instanceof ProtocolException ? reason.getMessage() : reason.toString());
    }

    /** "TLS handshake failed: " and every distinct message down the cause chain (PKIX, expiry, revocation). */
    static String tlsFailure(Throwable cause) {
        StringBuilder reasons = new StringBuilder("TLS handshake failed: ").append(cause.getMessage());
        Throwable inner = cause;
        while (inner.getCause() != null && inner.getCause() != inner) {
            inner = inner.getCause();
            if (inner.getMessage() != null && reasons.indexOf(inner.getMessage()) < 0) {
                reasons.append(": ").append(inner.getMessage());
            }
        }
        return reasons.toString();
    }

    private void refuse(ChannelHandlerContext ctx, String reason) {
        logRefusal(ctx, reason);
        ctx.close();
    }

    private void logRefusal(ChannelHandlerContext ctx, String reason) {
        transport.refusals().refused(LOG, "Closing the " + portName + " connection from "
                + ctx.channel().remoteAddress() + " (" + (from < 0 ? "before hello" : opened ? "member " + from
                : "says it is member " + from) + "): " + reason);
    }
}
