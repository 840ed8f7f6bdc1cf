package dev.warden.client;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/** Wires a client together: one I/O thread, the completion executor, the session driver. */
final class ClientRuntime {
    private ClientRuntime() {
    }

    static WardenClient start(ClientConfig config, List<StateListener> listeners) {
        EventLoopGroup group = new NioEventLoopGroup(1, new DefaultThreadFactory("warden-client-io", true));
        EventLoop loop = group.next();
        ExecutorService owned = config.executor() == null
                ? Executors.newSingleThreadExecutor(new DefaultThreadFactory("warden-client-callbacks", true))
                : null;
        Executor completionsDelegate = owned != null ? owned : config.executor();
        SerialExecutor completions = new SerialExecutor(completionsDelegate);
        WatchTables watches = new WatchTables();
        Paths paths = new Paths(config.connectString().chroot());
        Bootstrap bootstrap = new Bootstrap().group(loop).channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, config.connectTimeoutMs());
        Runnable onTerminated = () -> {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            if (owned != null) {
                owned.shutdown();
            }
        };
        HostProvider hosts = config.hostProvider() != null ? config.hostProvider()
                : config.shuffleHosts() ? new StaticHostProvider(config.connectString().hosts(), new Random(config.shuffleSeed()))
                : StaticHostProvider.inGivenOrder(config.connectString().hosts());
        SessionDriver[] driverRef = new SessionDriver[1];
        ClientMetrics metrics = new ClientMetrics(() -> driverRef[0].outstandingRequests());
        SessionDriver driver = new SessionDriver(config, loop, bootstrap, completions, watches, paths, hosts, metrics,
                onTerminated);
        driverRef[0] = driver;
        io.netty.handler.ssl.SslContext tls = config.tls() == null ? null : ClientTls.context(config.tls());
        bootstrap.handler(new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel channel) {
                if (tls != null) {
                    // the host dialled, for the server certificate's host name check
                    java.net.InetSocketAddress peer = channel.attr(ClientTls.PEER).get();
                    channel.pipeline().addLast(tls.newHandler(channel.alloc(), peer.getHostString(), peer.getPort()));
                }
                channel.pipeline().addLast(
                        new LengthFieldBasedFrameDecoder(config.maxFrameBytes() + 4, 0, 4, 0, 4),
                        new FrameHandler(driver));
            }
        });
        listeners.forEach(driver::addListener);
        WardenClient client = new WardenClient(config, paths, watches, driver, metrics);
        driver.start();
        return client;
    }
}
