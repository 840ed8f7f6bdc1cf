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
 * four-letter word (four bytes, then the client waits) is never held back. The peer ports use it
 * too ({@code portUnification}): a member's hello frame starts with the high byte of its length, 0.
 */
public final class TlsSniffer extends ByteToMessageDecoder {
    public static final String SSL_HANDLER = "tls";
    private static final int TLS_HANDSHAKE_RECORD = 22;
    /** The major version byte of every TLS record (SSL 3.0 to TLS 1.3 all say 3). */
    private static final int TLS_MAJOR_VERSION = 3;
    private static final int TLS_RECORD_HEADER_BYTES = 5;

    private final ReloadingSslContext context;

    public TlsSniffer(ReloadingSslContext context) {
        this.context = context;
    }

    /**
     * Whether the bytes at the reader index open a TLS handshake record (0x16 0x03): what a TLS
     * client sends first, read by a plaintext port as a frame length of about 369 million.
     */
    public static boolean startsTlsHandshake(ByteBuf in) {
        return in.readableBytes() >= 2 && in.getUnsignedByte(in.readerIndex()) == TLS_HANDSHAKE_RECORD
                && in.getUnsignedByte(in.readerIndex() + 1) == TLS_MAJOR_VERSION;
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
