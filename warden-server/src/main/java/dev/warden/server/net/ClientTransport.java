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
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client ports: Netty event loops that decode frames and hand them to connections. The
 * plaintext port ({@code clientPort}) is bound at construction; a TLS port
 * ({@code secureClientPort}) is added with {@link #bind}, on the same event loops.
 */
public final class ClientTransport implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ClientTransport.class);

    private final ServerContext server;
    private final EventLoopGroup bossGroup;
    private final EventLoopGroup workerGroup;
    private final Channel serverChannel;
    private final List<Channel> otherChannels = new CopyOnWriteArrayList<>();

    public ClientTransport(ServerContext server, String host, int port, int ioThreads) throws InterruptedException {
        this(server, host, port, ioThreads, ClientPortTls.PLAINTEXT);
    }

    /** Binds {@code clientPort}, speaking what {@code tls} says (plaintext, or both with port unification). */
    public ClientTransport(ServerContext server, String host, int port, int ioThreads, ClientPortTls tls)
            throws InterruptedException {
        this.server = server;
        bossGroup = ServerThreads.eventLoops("warden-accept-" + port, 1);
        workerGroup = ServerThreads.eventLoops("warden-io-" + port, ioThreads);
        serverChannel = listen(host, port, tls);
    }

    /** Binds another client port (the TLS one); returns the port bound. */
    public int bind(String host, int port, ClientPortTls tls) throws InterruptedException {
        Channel channel = listen(host, port, tls);
        otherChannels.add(channel);
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    private Channel listen(String host, int port, ClientPortTls tls) throws InterruptedException {
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(bossGroup, workerGroup)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        tls.install(channel);
                        FrameDecoder frames = new FrameDecoder(server.config().juteMaxBuffer());
                        channel.pipeline().addLast(frames, new ClientConnection(server, frames));
                    }
                });
        Channel channel = bootstrap.bind(new InetSocketAddress(host, port)).sync().channel();
        if (tls.mode() != ClientPortTls.Mode.PLAINTEXT) {
            log.info("client port {} takes {} clients (TLS engine: {})", channel.localAddress(), tls.describe(),
                    dev.warden.server.security.NettyTls.engine());
        }
        return channel;
    }

    public int port() {
        return ((InetSocketAddress) serverChannel.localAddress()).getPort();
    }

    /** Stops accepting new connections. */
    public void stopAccepting() {
        serverChannel.close().awaitUninterruptibly();
        for (Channel channel : otherChannels) {
            channel.close().awaitUninterruptibly();
        }
    }

    @Override
    public void close() {
        stopAccepting();
        bossGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
        workerGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
    }
}
