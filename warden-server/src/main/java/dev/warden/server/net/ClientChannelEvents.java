package dev.warden.server.net;

import dev.warden.state.auth.AuthIdentities;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.ssl.NotSslRecordException;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** What a client channel hears besides frames: a failure, and the end of a TLS handshake. */
final class ClientChannelEvents {
    /** The connection's logger: these lines are the connection's. */
    private static final Logger log = LoggerFactory.getLogger(ClientConnection.class);

    private ClientChannelEvents() {
    }

    /** The channel failed: a plaintext client on a TLS port and a failed handshake are logged as refusals. */
    static void failed(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof DecoderException && cause.getCause() instanceof NotSslRecordException) {
            TlsRefusals.notTls(ctx.channel().remoteAddress());
        } else if (!TlsRefusals.isHandshakeFailure(cause)) {
            log.info("closing {}: {}", ctx.channel().remoteAddress(), cause.toString());
        }
        ctx.close();
    }

    /**
     * A TLS handshake finished: a verified client certificate becomes the connection's x509
     * identity (before any frame of the client is read, so its first request already has it).
     */
    static void userEvent(ChannelHandlerContext ctx, Object event, ServerContext server, AuthIdentities identities) {
        if (event instanceof SslHandshakeCompletionEvent done) {
            if (done.isSuccess()) {
                SslHandler tls = ctx.pipeline().get(SslHandler.class);
                X509Login.identify(tls.engine().getSession(), server.config().security().x509(), identities,
                        ctx.channel().remoteAddress());
            } else {
                TlsRefusals.handshakeFailed(ctx.channel().remoteAddress(), done.cause());
            }
        }
        ctx.fireUserEventTriggered(event);
    }
}
