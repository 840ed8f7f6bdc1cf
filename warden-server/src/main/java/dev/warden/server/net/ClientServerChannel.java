package dev.warden.server.net;

import io.netty.channel.Channel;
import io.netty.channel.ChannelId;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.internal.SocketUtils;
import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client port's listening channel: Netty's NIO server channel, except that the connections
 * it accepts carry a sequence number as their channel id. Netty's default id (machine, process,
 * time and random bytes, unique across processes) costs 80 bytes on every connection; a client
 * connection's id is only ever shown in this server's own log lines, where a number unique in
 * the process is enough.
 */
final class ClientServerChannel extends NioServerSocketChannel {
    private static final Logger log = LoggerFactory.getLogger(ClientServerChannel.class);
    private static final AtomicLong NEXT_ID = new AtomicLong();

    @Override
    protected int doReadMessages(List<Object> accepted) throws Exception {
        SocketChannel socket = SocketUtils.accept(javaChannel());
        if (socket == null) {
            return 0;
        }
        try {
            accepted.add(new ClientSocketChannel(this, socket));
            return 1;
        } catch (RuntimeException e) {
            log.warn("closing an accepted connection that could not be set up: {}", e.toString());
            try {
                socket.close();
            } catch (IOException closeFailure) {
                log.warn("could not close an accepted connection: {}", closeFailure.toString());
            }
            return 0;
        }
    }

    /** A client connection's channel, identified by its number in accept order. */
    static final class ClientSocketChannel extends NioSocketChannel {
        ClientSocketChannel(Channel parent, SocketChannel socket) {
            super(parent, socket);
        }

        @Override
        protected ChannelId newId() {
            return new SequenceId(NEXT_ID.incrementAndGet());
        }
    }

    /** A channel id that is a number, unique within this process. */
    record SequenceId(long sequence) implements ChannelId {
        @Override
        public String asShortText() {
            return Long.toHexString(sequence);
        }

        @Override
        public String asLongText() {
            return "client-" + Long.toHexString(sequence);
        }

        @Override
        public int compareTo(ChannelId other) {
            return other instanceof SequenceId id ? Long.compare(sequence, id.sequence)
                    : asLongText().compareTo(other.asLongText());
        }

        @Override
        public String toString() {
            return asShortText();
        }
    }
}
