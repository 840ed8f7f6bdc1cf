package dev.warden.server.net;

import dev.warden.server.security.ReloadingSslContext;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.socket.SocketChannel;

/**
 * What one client port speaks: plaintext only, TLS only ({@code secureClientPort}), or both,
 * told apart by the first bytes of each connection ({@code client.portUnification}).
 */
public record ClientPortTls(Mode mode, ReloadingSslContext context) {
    public enum Mode { PLAINTEXT, TLS, UNIFIED }

    public static final ClientPortTls PLAINTEXT = new ClientPortTls(Mode.PLAINTEXT, null);

    public static ClientPortTls tlsOnly(ReloadingSslContext context) {
        return new ClientPortTls(Mode.TLS, context);
    }

    public static ClientPortTls unified(ReloadingSslContext context) {
        return new ClientPortTls(Mode.UNIFIED, context);
    }

    /** Adds the TLS handler, or the sniffer that adds it, in front of the frame decoder. */
    void install(SocketChannel channel) {
        ChannelPipeline pipeline = channel.pipeline();
        switch (mode) {
            case TLS -> pipeline.addLast(TlsSniffer.SSL_HANDLER, context.current().newHandler(channel.alloc()));
            case UNIFIED -> pipeline.addLast(new TlsSniffer(context));
            case PLAINTEXT -> {
                // frames straight from the socket
            }
        }
    }

    String describe() {
        return switch (mode) {
            case PLAINTEXT -> "plaintext";
            case TLS -> "TLS";
            case UNIFIED -> "TLS and plaintext";
        };
    }
}
