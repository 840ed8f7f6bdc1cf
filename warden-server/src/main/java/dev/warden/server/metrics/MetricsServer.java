package dev.warden.server.metrics;

import dev.warden.server.config.MetricsSettings;
import dev.warden.server.net.ServerContext;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.prometheus.client.CollectorRegistry;
import io.prometheus.client.hotspot.DefaultExports;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * {@code /metrics} for Prometheus on {@code metricsProvider.httpHost:httpPort}, as ZooKeeper's
 * Prometheus provider serves it: the server's metrics under ZooKeeper's names and, with
 * {@code metricsProvider.exportJvmInfo} (the default), the JVM's (memory, GC, threads, classes,
 * process), in text format 0.0.4 whatever the scraper asks for ({@link ScrapeText}). Each server
 * has its own registry, so several servers in one JVM (tests) do not mix their metrics.
 */
public final class MetricsServer implements AutoCloseable {
    private final EventLoopGroup group;
    private final Channel channel;

    private MetricsServer(EventLoopGroup group, Channel channel) {
        this.group = group;
        this.channel = channel;
    }

    /** Binds and serves; throws if the port cannot be bound (the caller names the keys). */
    public static MetricsServer start(MetricsSettings settings, ServerContext server) throws InterruptedException {
        CollectorRegistry jvm = new CollectorRegistry();
        if (settings.exportJvmInfo()) {
            DefaultExports.register(jvm);
            jvm.register(new LoadedClassesGauge());
        }
        ScrapeText scrapes = new ScrapeText(new ServerCollector(server), jvm);
        EventLoopGroup group = dev.warden.server.threads.ServerThreads.eventLoops("warden-metrics-" + settings.httpPort(), 1);
        try {
            Channel channel = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(64 * 1024),
                                    new ScrapeHandler(scrapes));
                        }
                    })
                    .bind(new InetSocketAddress(settings.httpHost(), settings.httpPort())).sync().channel();
            return new MetricsServer(group, channel);
        } catch (InterruptedException | RuntimeException e) {
            group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            throw e;
        }
    }

    public int port() {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private static final class ScrapeHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
        private final ScrapeText scrapes;

        ScrapeHandler(ScrapeText scrapes) {
            this.scrapes = scrapes;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) throws IOException {
            String path = new QueryStringDecoder(request.uri()).path();
            if (!request.method().equals(HttpMethod.GET) || !(path.equals("/metrics") || path.equals("/"))) {
                respond(ctx, HttpResponseStatus.NOT_FOUND, "text/plain", "metrics are at /metrics\n");
                return;
            }
            respond(ctx, HttpResponseStatus.OK, ScrapeText.CONTENT_TYPE, scrapes.write());
        }

        private static void respond(ChannelHandlerContext ctx, HttpResponseStatus status, String contentType,
                                    String body) {
            ByteBuf content = Unpooled.copiedBuffer(body, StandardCharsets.UTF_8);
            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, content);
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
            response.headers().set(HttpHeaderNames.CONTENT_LENGTH, content.readableBytes());
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
