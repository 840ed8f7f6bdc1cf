package dev.warden.server.admin;

import dev.warden.server.config.AdminServerSettings;
import dev.warden.server.console.Console;
import dev.warden.server.net.ClientPortTls;
import dev.warden.server.net.ServerContext;
import dev.warden.server.security.NettyTls;
import dev.warden.server.security.ReloadingSslContext;
import dev.warden.storage.SnapshotStore;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.stream.ChunkedWriteHandler;
import io.netty.handler.timeout.IdleStateHandler;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * ZooKeeper's AdminServer on Netty's HTTP codec: the admin commands as JSON on
 * {@code admin.serverAddress:admin.serverPort} under {@code admin.commandURL}, and the web
 * console under {@code /console} ({@link Console}), over HTTP, HTTPS ({@code admin.forceHttps})
 * or both on the one port ({@code admin.portUnification}), with the TLS contexts and port
 * unification of the client port over the {@code ssl.quorum} stores
 * ({@link dev.warden.server.config.AdminTlsSettings}). One event loop thread: the commands are cheap and
 * rare, and the client port's threads stay free.
 */
public final class AdminServer implements AutoCloseable {
    private final EventLoopGroup group;
    private final Channel channel;
    private final Console console;

    private AdminServer(EventLoopGroup group, Channel channel, Console console) {
        this.group = group;
        this.channel = channel;
        this.console = console;
    }

    /**
     * Binds and starts serving; throws if the port cannot be bound (the caller says which key
     * to change). {@code scratchDir} holds snapshots while they are streamed.
     */
    /**
     * What the port speaks. The stores are read once, at start (the configuration check has
     * already read them, so a bad store stopped the server naming its key).
     */
    private static ClientPortTls portTls(AdminServerSettings settings) {
        if (!settings.tls().httpsOn()) {
            return ClientPortTls.PLAINTEXT;
        }
        ReloadingSslContext context = new ReloadingSslContext(settings.tls().serverSettings(), NettyTls::forServer,
                false, Long.MAX_VALUE, System::currentTimeMillis);
        // admin.forceHttps wins over admin.portUnification, as in ZooKeeper
        return settings.tls().forceHttps() ? ClientPortTls.tlsOnly(context) : ClientPortTls.unified(context);
    }

    public static AdminServer start(AdminServerSettings settings, ServerContext server, SnapshotStore snapshots,
                                    BackupSource backups, Path scratchDir) throws InterruptedException {
        AdminCommands commands = new AdminCommands(server, snapshots);
        RestoreAdminCommand restore = new RestoreAdminCommand(server, settings.restoreEnabled(),
                new AdminRateLimit(settings.rateLimiterIntervalMs(), server.clock()));
        AdminRateLimit snapshotLimit = new AdminRateLimit(settings.rateLimiterIntervalMs(), server.clock());
        // HTTPS (admin.forceHttps), or HTTP and HTTPS told apart by their first bytes (admin.portUnification)
        ClientPortTls tls = portTls(settings);
        Console console = new Console(server); // the web console, at /console
        EventLoopGroup group = dev.warden.server.threads.ServerThreads.eventLoops("warden-admin-" + settings.port(), 1);
        try {
            Channel channel = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new IdleStateHandler(0, 0, settings.idleTimeoutMs(),
                                    TimeUnit.MILLISECONDS));
                            tls.install(ch);
                            ch.pipeline().addLast(new HttpServerCodec());
                            ch.pipeline().addLast(new ChunkedWriteHandler());
                            ch.pipeline().addLast(console.newHandler());
                            ch.pipeline().addLast(new AdminHttpHandler(server, commands, backups,
                                    settings.commandUrl(), scratchDir, restore, snapshotLimit,
                                    settings.snapshotEnabled()));
                        }
                    })
                    .bind(new InetSocketAddress(settings.address(), settings.port())).sync().channel();
            return new AdminServer(group, channel, console);
        } catch (InterruptedException | RuntimeException e) {
            group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            console.close();
            throw e;
        }
    }

    /** The port bound (admin.serverPort, or the one picked for 0). */
    public int port() {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        console.close();
    }
}
