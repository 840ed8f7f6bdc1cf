package dev.warden.server.net;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/** The client port: Netty event loops that decode frames and hand them to connections. */
public final class ClientTransport implements AutoCloseable {
    private final EventLoopGroup bossGroup = new NioEventLoopGroup(1);
    private final EventLoopGroup workerGroup;
    private final Channel serverChannel;

    /**
     * Binds the client port. A port that cannot be bound is an IOException naming the address,
     * the keys that set it and the cause ("Address already in use", ...).
     */
    public ClientTransport(ServerContext server, String host, int port, int ioThreads)
            throws InterruptedException, IOException {
        workerGroup = new NioEventLoopGroup(ioThreads);
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
        try {
            serverChannel = bootstrap.bind(new InetSocketAddress(host, port)).sync().channel();
        } catch (InterruptedException e) {
            shutDownThreads();
            throw e;
        } catch (Exception e) { // Netty rethrows the bind's BindException unchecked
            shutDownThreads();
            throw new IOException("cannot listen for clients on " + host + ":" + port + " (clientPortAddress,"
                    + " clientPort): " + e.getMessage() + (e instanceof java.net.BindException
                    ? "; another process (or another server) holds that port: stop it or choose another clientPort"
                    : ""), e);
        }
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
        shutDownThreads();
    }

    private void shutDownThreads() {
        bossGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
        workerGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
    }
}
