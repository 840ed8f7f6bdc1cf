package dev.warden.server.admin;

import dev.warden.server.AdminServerSettings;
import dev.warden.server.net.ServerContext;
import dev.warden.storage.SnapshotStore;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
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
 * {@code admin.serverAddress:admin.serverPort} under {@code admin.commandURL}. One event loop
 * thread: the commands are cheap and rare, and the client port's threads stay free.
 */
public final class AdminServer implements AutoCloseable {
    private final EventLoopGroup group;
    private final Channel channel;

    private AdminServer(EventLoopGroup group, Channel channel) {
        this.group = group;
        this.channel = channel;
    }

    /**
     * Binds and starts serving; throws if the port cannot be bound (the caller says which key
     * to change). {@code scratchDir} holds snapshots while they are streamed.
     */
    public static AdminServer start(AdminServerSettings settings, ServerContext server, SnapshotStore snapshots,
                                    BackupSource backups, Path scratchDir) throws InterruptedException {
        AdminCommands commands = new AdminCommands(server, snapshots);
        EventLoopGroup group = new NioEventLoopGroup(1, runnable -> {
            Thread thread = new Thread(runnable, "warden-admin-" + settings.port());
            thread.setDaemon(true);
            return thread;
        });
        try {
            Channel channel = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new IdleStateHandler(0, 0, settings.idleTimeoutMs(),
                                    TimeUnit.MILLISECONDS));
                            ch.pipeline().addLast(new HttpServerCodec());
                            ch.pipeline().addLast(new ChunkedWriteHandler());
                            ch.pipeline().addLast(new AdminHttpHandler(server, commands, backups,
                                    settings.commandUrl(), scratchDir));
                        }
                    })
                    .bind(new InetSocketAddress(settings.address(), settings.port())).sync().channel();
            return new AdminServer(group, channel);
        } catch (InterruptedException | RuntimeException e) {
            group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
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
    }
}
