package dev.warden.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Hands each inbound frame (length prefix already stripped) to the session driver. */
final class FrameHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(FrameHandler.class);

    private final SessionDriver driver;

    FrameHandler(SessionDriver driver) {
        this.driver = driver;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf frame = (ByteBuf) msg;
        try {
            driver.onFrame(ctx.channel(), ByteBufUtil.getBytes(frame));
        } finally {
            frame.release();
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        driver.flush();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("connection {} failed: {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }
}
