package dev.warden.server.net;

import dev.warden.server.threads.ServerThreads;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import java.io.IOException;
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
    /**
     * One read-size policy for every client channel: Netty otherwise gives each channel an
     * allocator object of its own, though only the per-channel handle it makes keeps any state.
     */
    private static final AdaptiveRecvByteBufAllocator READ_SIZES = new AdaptiveRecvByteBufAllocator();

    private final ServerContext server;
    private final EventLoopGroup bossGroup;
    private final EventLoopGroup workerGroup;
    private final Channel serverChannel;
    private final List<Channel> otherChannels = new CopyOnWriteArrayList<>();

    public ClientTransport(ServerContext server, String host, int port, int ioThreads)
            throws InterruptedException, IOException {
        this(server, host, port, ioThreads, ClientPortTls.PLAINTEXT);
    }

    /**
     * Binds {@code clientPort}, speaking what {@code tls} says (plaintext, or both with port
     * unification). A port that cannot be bound is an IOException naming the address, the keys
     * that set it and the cause ("Address already in use", ...).
     */
    public ClientTransport(ServerContext server, String host, int port, int ioThreads, ClientPortTls tls)
            throws InterruptedException, IOException {
        this.server = server;
        bossGroup = ServerThreads.eventLoops("warden-accept-" + port, 1);
        workerGroup = ServerThreads.eventLoops("warden-io-" + port, ioThreads);
        try {
            serverChannel = listen(host, port, tls, "clientPortAddress", "clientPort");
        } catch (InterruptedException | IOException | RuntimeException e) {
            shutDownThreads();
            throw e;
        }
    }

    /**
     * Binds another client port (the TLS one); returns the port bound. A port that cannot be
     * bound is an IOException as above, naming secureClientPort.
     */
    public int bind(String host, int port, ClientPortTls tls) throws InterruptedException, IOException {
        Channel channel = listen(host, port, tls, "secureClientPortAddress", "secureClientPort");
        otherChannels.add(channel);
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    /** {@code addressKey} and {@code portKey} name the settings that chose the address, for a bind error. */
    private Channel listen(String host, int port, ClientPortTls tls, String addressKey, String portKey)
            throws InterruptedException, IOException {
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(bossGroup, workerGroup)
                .channelFactory((ChannelFactory<ClientServerChannel>) ClientServerChannel::new)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.RCVBUF_ALLOCATOR, READ_SIZES)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, ClientConnection.OUTBOUND_WATER_MARK)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        tls.install(channel);
                        FrameDecoder frames = new FrameDecoder(server.config().juteMaxBuffer());
                        channel.pipeline().addLast(frames, new ClientConnection(server, frames));
                    }
                });
        Channel channel;
        try {
            channel = bootstrap.bind(new InetSocketAddress(host, port)).sync().channel();
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) { // Netty rethrows the bind's BindException unchecked
            throw new IOException("cannot listen for clients on " + host + ":" + port + " (" + addressKey + ", "
                    + portKey + "): " + e.getMessage() + (e instanceof java.net.BindException
                    ? "; another process (or another server) holds that port: stop it or choose another " + portKey
                    : ""), e);
        }
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
        shutDownThreads();
    }

    private void shutDownThreads() {
        bossGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
        workerGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
    }
}
