package dev.warden.server.net;

import dev.warden.protocol.JuteWriter;
import dev.warden.protocol.Record;
import dev.warden.protocol.ReplyHeader;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/** One connection's ordered queue of outbound frames, handed to its event loop and written at the loop's next turn. */
final class OutboundFrames {
    private static final ByteBuf CLOSE_MARKER = Unpooled.EMPTY_BUFFER;

    private final ServerContext server;
    private final ClientConnection connection;
    private final Queue<ByteBuf> outbound = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    private Channel channel;
    private volatile boolean closing;
    private volatile long lastZxidSent;

    OutboundFrames(ServerContext server, ClientConnection connection) {
        this.server = server;
        this.connection = connection;
    }

    /** The connection's channel, once accepted. */
    void attach(Channel channel) {
        this.channel = channel;
    }

    /** True once the connection is being closed: nothing more is sent, nothing more is read. */
    boolean closing() {
        return closing;
    }

    void markClosing() {
        closing = true;
    }

    long lastZxidSent() {
        return lastZxidSent;
    }

    /** Encodes a reply (a header, a body, or both) and queues it. */
    void send(ReplyHeader header, Record body) {
        if (closing) {
            return;
        }
        // sized once: a growing writer copies a 1 KiB getData reply twice before it is sent
        JuteWriter out = new JuteWriter(4 + ReplyHeader.BYTES + (body == null ? 0 : body.sizeHintBytes()));
        out.writeInt(0);
        if (header != null) {
            header.writeTo(out);
            if (header.zxid() > 0) {
                lastZxidSent = header.zxid();
            }
        }
        if (body != null) {
            body.writeTo(out);
        }
        out.setInt(0, out.size() - 4);
        server.stats().responseSize(out.size() - 4);
        enqueue(Unpooled.wrappedBuffer(out.array(), 0, out.size()));
    }

    /** A frame encoded elsewhere (and possibly shared with other connections: only read from it). */
    void sendEncoded(byte[] frame, long zxid) {
        if (closing) {
            return;
        }
        if (zxid > 0) {
            lastZxidSent = zxid;
        }
        server.stats().responseSize(frame.length - 4);
        enqueue(Unpooled.wrappedBuffer(frame));
    }

    /** Closes the connection once everything queued before has been written. */
    void closeAfterFlush() {
        enqueue(CLOSE_MARKER);
    }

    /** Releases what was never written (the connection is gone). */
    void releaseAll() {
        ByteBuf pending;
        while ((pending = outbound.poll()) != null) {
            pending.release();
        }
    }

    private void enqueue(ByteBuf frame) {
        outbound.add(frame);
        if (drainScheduled.compareAndSet(false, true)) {
            channel.eventLoop().execute(this::drain);
        }
    }

    private void drain() {
        drainScheduled.set(false);
        ByteBuf frame;
        boolean wrote = false;
        while ((frame = outbound.poll()) != null) {
            if (frame == CLOSE_MARKER) {
                closing = true;
                channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(f -> channel.close());
                return;
            }
            channel.write(frame, channel.voidPromise());
            server.stats().sent();
            connection.connectionStats().sent();
            wrote = true;
        }
        if (wrote) {
            channel.flush();
        }
    }
}
