package dev.warden.server.net;

import dev.warden.server.threads.ServerThreads;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/** The client port: Netty event loops that decode frames and hand them to connections. */
public final class ClientTransport implements AutoCloseable {
    private final EventLoopGroup bossGroup;
    private final EventLoopGroup workerGroup;
    private final Channel serverChannel;

    public ClientTransport(ServerContext server, String host, int port, int ioThreads) throws InterruptedException {
        bossGroup = ServerThreads.eventLoops("warden-accept-" + port, 1);
        workerGroup = ServerThreads.eventLoops("warden-io-" + port, ioThreads);
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(bossGroup, workerGroup)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        FrameDecoder frames = new FrameDecoder(server.config().juteMaxBuffer());
                        channel.pipeline().addLast(frames, new ClientConnection(server, frames));
                    }
                });
        serverChannel = bootstrap.bind(new InetSocketAddress(host, port)).sync().channel();
    }

    public int port() {
        return ((InetSocketAddress) serverChannel.localAddress()).getPort();
    }

    /** Stops accepting new connections. */
    public void stopAccepting() {
        serverChannel.close().awaitUninterruptibly();
    }

    @Override
    public void close() {
        stopAccepting();
        bossGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
        workerGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
    }
}
