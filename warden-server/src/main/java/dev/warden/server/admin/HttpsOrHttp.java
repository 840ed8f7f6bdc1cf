package dev.warden.server.admin;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import java.util.List;

/**
 * admin.portUnification: looks at a new connection's first bytes and puts TLS in front of the
 * HTTP codec when they open a TLS handshake, or steps aside for plain HTTP. The bytes read so
 * far go on to whichever handler takes its place.
 */
final class HttpsOrHttp extends ByteToMessageDecoder {
    /** A TLS record header is 5 bytes; fewer cannot tell the two apart. */
    private static final int TLS_HEADER_BYTES = 5;

    private final SslContext tls;

    HttpsOrHttp(SslContext tls) {
        this.tls = tls;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (in.readableBytes() < TLS_HEADER_BYTES) {
            return;
        }
        if (SslHandler.isEncrypted(in)) {
            ctx.pipeline().replace(this, AdminServer.TLS_HANDLER, tls.newHandler(ctx.alloc()));
        } else {
            ctx.pipeline().remove(this);
        }
    }
}
