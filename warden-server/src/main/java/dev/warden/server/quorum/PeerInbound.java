package dev.warden.server.quorum;

import dev.warden.consensus.ZabCodec;
import dev.warden.consensus.ZabMessage;
import dev.warden.protocol.ProtocolException;
import dev.warden.server.net.FrameScratch;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.Arrays;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One accepted connection from a peer: the first frame must be a hello naming a known member,
 * every later frame is a message from it. Anything malformed closes the connection.
 */
final class PeerInbound extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(PeerInbound.class);

    private final PeerTransport transport;
    private final String portName;
    private long from = -1;
    /** Set when a newer connection from the same member took over; its close is then not news. */
    boolean replaced;

    PeerInbound(PeerTransport transport, String portName) {
        this.transport = transport;
        this.portName = portName;
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
                long sender = PeerWire.readHello(Arrays.copyOf(body, length));
                if (!transport.isPeer(sender)) {
                    throw new ProtocolException("hello from " + sender + ", which is not another member of the ensemble");
                }
                from = sender;
                transport.inboundOpened(from, portName, ctx.channel(), this);
                return;
            }
            ZabMessage message = ZabCodec.decode(body, 0, length);
            transport.deliver(from, message);
        } catch (ProtocolException bad) {
            LOG.warn("Closing the {} connection from {} ({}): {}", portName, ctx.channel().remoteAddress(),
                    from < 0 ? "before hello" : "member " + from, bad.getMessage());
            ctx.close();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (from >= 0 && !replaced) {
            transport.inboundClosed(from, portName, ctx.channel());
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // TooLongFrameException lands here, as do resets by the peer.
        LOG.warn("Closing the {} connection from {} (member {}): {}", portName, ctx.channel().remoteAddress(),
                from, cause.toString());
        ctx.close();
    }
}
