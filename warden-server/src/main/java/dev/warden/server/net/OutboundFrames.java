package dev.warden.server.net;

import dev.warden.protocol.JuteWriter;
import dev.warden.protocol.Record;
import dev.warden.protocol.ReplyHeader;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One connection's ordered queue of outbound frames, handed to its event loop and written at the
 * loop's next turn.
 *
 * <p>The queue is a stack of frames pushed with compare-and-set and taken whole by the drain,
 * which reverses it into the order the frames were pushed in. The push that finds the stack
 * empty schedules the drain, so no flag is needed, and an idle connection's queue is one null
 * field (a ConcurrentLinkedQueue and its flag kept about 90 bytes on every idle connection).
 */
final class OutboundFrames {
    private static final ByteBuf CLOSE_MARKER = Unpooled.EMPTY_BUFFER;
    private static final VarHandle NEWEST = FieldHandles.of(MethodHandles.lookup(), "newest", Pending.class);

    private final ServerContext server;
    private final ClientConnection connection;
    /** The frames not yet taken by the drain, the newest first; null when none waits. */
    private volatile Pending newest;
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
        releaseFrom((Pending) NEWEST.getAndSet(this, null));
    }

    private void enqueue(ByteBuf frame) {
        Pending pushed = new Pending(frame);
        Pending before;
        do {
            before = newest;
            pushed.next = before;
        } while (!NEWEST.compareAndSet(this, before, pushed));
        if (before == null) {
            // the stack was empty: no drain is scheduled until this one runs and takes it
            channel.eventLoop().execute(this::drain);
        }
    }

    private void drain() {
        Pending oldest = inPushOrder((Pending) NEWEST.getAndSet(this, null));
        boolean wrote = false;
        for (Pending p = oldest; p != null; p = p.next) {
            if (p.frame == CLOSE_MARKER) {
                closing = true;
                channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(f -> channel.close());
                // what follows the marker is never written: the connection is closing
                releaseFrom(p.next);
                return;
            }
            channel.write(p.frame, channel.voidPromise());
            server.stats().sent();
            connection.connectionStats().sent();
            wrote = true;
        }
        if (wrote) {
            channel.flush();
        }
    }

    /** Reverses a stack taken whole (newest first) into push order; returns the oldest. */
    private static Pending inPushOrder(Pending newestFirst) {
        Pending reversed = null;
        Pending p = newestFirst;
        while (p != null) {
            Pending next = p.next;
            p.next = reversed;
            reversed = p;
            p = next;
        }
        return reversed;
    }

    private static void releaseFrom(Pending first) {
        for (Pending p = first; p != null; p = p.next) {
            p.frame.release();
        }
    }

    /** One frame in the stack; {@code next} is set before the push publishes it and by the drain after. */
    private static final class Pending {
        final ByteBuf frame;
        Pending next;

        Pending(ByteBuf frame) {
            this.frame = frame;
        }
    }
}
