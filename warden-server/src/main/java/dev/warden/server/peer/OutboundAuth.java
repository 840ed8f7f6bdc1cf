package dev.warden.server.peer;

import dev.warden.protocol.ProtocolException;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import javax.security.sasl.SaslClient;
import javax.security.sasl.SaslException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The SASL exchange of one connection this member dialled, after its hello: this member is the
 * SASL client (its learner section) and the member dialled answers each token. Until the
 * exchange is over the link sends no message on the connection; then this handler leaves the
 * pipeline and tells the link, which starts sending. A failure (wrong credentials on either side,
 * a member that does not authenticate members, no answer within the hello timeout) closes the
 * connection with {@code quorum.auth.learnerRequireSasl}, to be dialled again later; without it
 * the link sends anyway, unauthenticated. Mechanism steps run on the transport's SASL thread.
 */
final class OutboundAuth extends ByteToMessageDecoder {
    private static final Logger LOG = LoggerFactory.getLogger(OutboundAuth.class);

    private final PeerLink link;
    private final PeerTransport transport;
    private final long peerId;
    private final String where;
    private final String host;
    private final long timeoutMs;
    private ChannelHandlerContext ctx;
    private volatile SaslClient client;
    private ScheduledFuture<?> deadline;
    private boolean over;

    /** {@code where}: "member N at address (port)", for the log. */
    OutboundAuth(PeerLink link, PeerTransport transport, long peerId, String where, String host, long timeoutMs) {
        this.link = link;
        this.transport = transport;
        this.peerId = peerId;
        this.where = where;
        this.host = host;
        this.timeoutMs = timeoutMs;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    /** Sends the first token; called on the I/O thread right after the hello was written. */
    void begin() {
        deadline = ctx.executor().schedule(() -> unauthenticated("no answer to SASL authentication within "
                + timeoutMs + " ms"), timeoutMs, TimeUnit.MILLISECONDS);
        offThread(() -> {
            client = learner().newClient(host);
            return learner().firstToken(client);
        }, this::send);
    }

    private dev.warden.protocol.sasl.SaslCredentials learner() {
        return transport.security().sasl().learner();
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (over) {
            return; // this handler leaves the pipeline; what follows is not for it
        }
        if (in.readableBytes() < PeerWire.LENGTH_BYTES) {
            return;
        }
        int length = in.getInt(in.readerIndex());
        if (length < 1 || length > PeerWire.MAX_AUTH_FRAME_BYTES + 1) {
            in.skipBytes(in.readableBytes());
            unauthenticated("an answer of " + length + " bytes is not a SASL answer");
            return;
        }
        if (in.readableBytes() < PeerWire.LENGTH_BYTES + length) {
            return;
        }
        in.skipBytes(PeerWire.LENGTH_BYTES);
        byte[] body = new byte[length];
        in.readBytes(body);
        PeerWire.AuthReply reply;
        try {
            reply = PeerWire.readAuthReply(body);
        } catch (ProtocolException bad) {
            unauthenticated(bad.getMessage());
            return;
        }
        switch (reply.status()) {
            case CHALLENGE -> offThread(() -> learner().evaluate(client, reply.payload()), this::send);
            case SUCCESS -> offThread(() -> {
                SaslClient c = client;
                if (reply.payload().length > 0 || !c.isComplete()) {
                    learner().evaluate(c, reply.payload());
                }
                if (!c.isComplete()) {
                    throw new SaslException("the member said the exchange succeeded before it proved itself");
                }
                return null;
            }, ignored -> authenticated());
            case FAILED -> unauthenticated("it refused this member's SASL authentication: " + reply.reason());
            case NOT_OFFERED -> unauthenticated("it does not authenticate members: " + reply.reason());
        }
    }

    private interface Step {
        byte[] run() throws SaslException;
    }

    private interface Then {
        void accept(byte[] result);
    }

    /** Runs a mechanism step on the SASL thread, then {@code then} on the I/O thread. */
    private void offThread(Step step, Then then) {
        try {
            transport.saslSteps().execute(() -> {
                byte[] result;
                try {
                    result = step.run();
                } catch (SaslException | RuntimeException e) {
                    String reason = "SASL authentication (" + learner().mechanism() + ") failed here: "
                            + InboundAuth.reason(e);
                    ctx.executor().execute(() -> unauthenticated(reason));
                    return;
                }
                ctx.executor().execute(() -> {
                    if (!over && ctx.channel().isActive()) {
                        then.accept(result);
                    }
                });
            });
        } catch (RejectedExecutionException closing) {
            over = true;
            ctx.close();
        }
    }

    private void send(byte[] token) {
        ctx.writeAndFlush(PeerWire.frame(token == null ? new byte[0] : token));
    }

    private void authenticated() {
        if (finish()) {
            LOG.info("Authenticated to {} with SASL ({})", where, learner().mechanism());
            link.authenticated(ctx.channel());
        }
    }

    private void unauthenticated(String reason) {
        if (!finish()) {
            return;
        }
        if (transport.security().sasl().learnerRequireSasl()) {
            transport.refusals().refused(LOG, "Cannot connect to " + where + ": " + reason
                    + " (quorum.auth.learnerRequireSasl=true: nothing is sent to it)");
            ctx.close();
        } else {
            transport.refusals().refused(LOG, "Sending to " + where + " unauthenticated: " + reason
                    + " (quorum.auth.learnerRequireSasl=false)");
            link.authenticated(ctx.channel());
        }
    }

    /** Ends the exchange once; false if it had ended already or the connection is gone. */
    private boolean finish() {
        if (over || !ctx.channel().isActive()) {
            return false;
        }
        over = true;
        if (deadline != null) {
            deadline.cancel(false);
        }
        disposeClient();
        ctx.pipeline().remove(this);
        return true;
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        over = true;
        if (deadline != null) {
            deadline.cancel(false);
        }
        disposeClient();
        super.channelInactive(ctx);
    }

    private void disposeClient() {
        SaslClient c = client;
        if (c != null) {
            try {
                transport.saslSteps().execute(() -> {
                    try {
                        c.dispose();
                    } catch (SaslException ignored) {
                        // nothing more to release
                    }
                });
            } catch (RejectedExecutionException closed) {
                // the transport is closing
            }
        }
    }
}
