package dev.warden.server.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.nio.NioEventLoopGroup;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The client port's channels: accepted connections work as Netty's and carry a sequence number as their id. */
class ClientServerChannelTest {
    @Test
    void acceptedConnectionsAreReadAndNumberedInAcceptOrder() throws Exception {
        NioEventLoopGroup group = new NioEventLoopGroup(1);
        LinkedBlockingQueue<Channel> accepted = new LinkedBlockingQueue<>();
        LinkedBlockingQueue<Integer> received = new LinkedBlockingQueue<>();
        try {
            Channel server = new ServerBootstrap().group(group)
                    .channelFactory((ChannelFactory<ClientServerChannel>) ClientServerChannel::new)
                    .childHandler(new ChannelInitializer<>() {
                        @Override
                        protected void initChannel(Channel channel) {
                            accepted.add(channel);
                            channel.pipeline().addLast(new ChannelInboundHandlerAdapter() {
                                @Override
                                public void channelRead(ChannelHandlerContext ctx, Object message) {
                                    io.netty.buffer.ByteBuf bytes = (io.netty.buffer.ByteBuf) message;
                                    received.add(bytes.readableBytes());
                                    bytes.release();
                                }
                            });
                        }
                    })
                    .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
            int port = ((InetSocketAddress) server.localAddress()).getPort();
            try (Socket first = new Socket("127.0.0.1", port); Socket second = new Socket("127.0.0.1", port)) {
                first.getOutputStream().write(new byte[] {1, 2, 3});
                Channel a = accepted.poll(10, TimeUnit.SECONDS);
                Channel b = accepted.poll(10, TimeUnit.SECONDS);
                assertEquals(3, received.poll(10, TimeUnit.SECONDS));
                ClientServerChannel.SequenceId idA = assertInstanceOf(ClientServerChannel.SequenceId.class, a.id());
                ClientServerChannel.SequenceId idB = assertInstanceOf(ClientServerChannel.SequenceId.class, b.id());
                assertNotEquals(idA, idB);
                assertTrue(idA.compareTo(idB) < 0, "ids follow accept order");
                assertTrue(a.toString().contains(idA.asShortText()), a.toString());
            }
            server.close().sync();
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }
}
