package dev.warden.server.net;

import dev.warden.server.security.ReloadingSslContext;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.ssl.SslHandler;
import java.util.List;

/**
 * Port unification: looks at the first bytes of a connection and, if they open a TLS record,
 * puts a TLS handler in its own place; otherwise the connection stays plaintext. Either way it
 * then leaves the pipeline, handing on what it buffered. A TLS record starts with the content
 * type 22 (handshake); a ZooKeeper frame starts with the high byte of its length (0 for any
 * frame under 16 MiB) and a four-letter word with a letter, so one byte tells them apart and a
 * four-letter word (four bytes, then the client waits) is never held back.
 */
final class TlsSniffer extends ByteToMessageDecoder {
    static final String SSL_HANDLER = "tls";
    private static final int TLS_HANDSHAKE_RECORD = 22;
    private static final int TLS_RECORD_HEADER_BYTES = 5;

    private final ReloadingSslContext context;

    TlsSniffer(ReloadingSslContext context) {
        this.context = context;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (!in.isReadable()) {
            return;
        }
        boolean tls = false;
        if (in.getUnsignedByte(in.readerIndex()) == TLS_HANDSHAKE_RECORD) {
            if (in.readableBytes() < TLS_RECORD_HEADER_BYTES) {
                return;
            }
            tls = SslHandler.isEncrypted(in);
        }
        if (tls) {
            ctx.pipeline().addAfter(ctx.name(), SSL_HANDLER, context.current().newHandler(ctx.alloc()));
        }
        ctx.pipeline().remove(this);
    }
}
