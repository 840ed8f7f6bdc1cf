package dev.warden.bench.scale;

import dev.warden.protocol.ConnectRequest;
import dev.warden.protocol.ExistsRequest;
import dev.warden.protocol.JuteWriter;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.RequestHeader;
import dev.warden.protocol.SetDataRequest;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Many ZooKeeper sessions over raw sockets, so that thousands of them cost the load generator a
 * socket each rather than the two threads each of a full client: one thread reads every socket,
 * one pings every session at a third of its timeout. Enough of the protocol for idle sessions and
 * for one-shot exists watches on a node, set by every session and fired by one setData.
 */
public final class RawSessions implements AutoCloseable {
    /** Requests sent before their replies are read, when opening and closing sessions: group commit takes them together. */
    private static final int PIPELINE = 256;
    private static final int IO_TIMEOUT_MS = 30_000;

    private final List<SocketChannel> channels;
    private final Selector selector;
    private final Thread reader;
    private final Thread pinger;
    private final AtomicInteger repliesPending = new AtomicInteger();
    private final AtomicInteger notificationsSeen = new AtomicInteger();
    private final AtomicLong lastNotificationNs = new AtomicLong();
    private final AtomicInteger failedReplies = new AtomicInteger();
    private volatile boolean open = true;
    /** Why the reader stopped before {@link #close}, for the waiters' error; null while it reads. */
    private volatile String readerFailure;
    private int nextXid = 1;

    private RawSessions(List<SocketChannel> channels, int pingIntervalMs) throws IOException {
        this.channels = channels;
        this.selector = Selector.open();
        for (SocketChannel channel : channels) {
            channel.configureBlocking(false);
            channel.register(selector, SelectionKey.OP_READ, new FrameReader());
        }
        this.reader = new Thread(this::readLoop, "raw-sessions-reader");
        this.reader.setDaemon(true);
        this.reader.start();
        this.pinger = new Thread(() -> pingLoop(pingIntervalMs), "raw-sessions-pinger");
        this.pinger.setDaemon(true);
        this.pinger.start();
    }

    /** Opens {@code count} sessions on the server at {@code host:port}, a few hundred handshakes at a time. */
    public static RawSessions open(String host, int port, int count, int sessionTimeoutMs) throws IOException {
        List<SocketChannel> channels = new ArrayList<>(count);
        try {
            int negotiatedTimeoutMs = sessionTimeoutMs;
            long lastPingNs = System.nanoTime();
            for (int batchStart = 0; batchStart < count; batchStart += PIPELINE) {
                // opening thousands can take longer than a session's timeout on a busy server: the
                // sessions opened so far are pinged meanwhile (their replies wait for the reader)
                if (System.nanoTime() - lastPingNs > TimeUnit.MILLISECONDS.toNanos(negotiatedTimeoutMs / 3)) {
                    for (SocketChannel channel : channels) {
                        writeFully(channel, pingFrame());
                    }
                    lastPingNs = System.nanoTime();
                }
                List<SocketChannel> batch = new ArrayList<>();
                for (int i = batchStart; i < Math.min(count, batchStart + PIPELINE); i++) {
                    SocketChannel channel = SocketChannel.open(new InetSocketAddress(host, port));
                    channel.socket().setTcpNoDelay(true);
                    channel.socket().setSoTimeout(IO_TIMEOUT_MS);
                    channels.add(channel);
                    batch.add(channel);
                    JuteWriter request = new JuteWriter();
                    new ConnectRequest(0, 0, sessionTimeoutMs, 0, new byte[16], false, true).writeTo(request);
                    writeFully(channel, frame(request.toByteArray()));
                }
                for (SocketChannel channel : batch) {
                    ByteBuffer reply = readFrameBlocking(channel);
                    reply.getInt(); // protocol version
                    negotiatedTimeoutMs = Math.min(negotiatedTimeoutMs, reply.getInt());
                    if (reply.getLong() == 0) {
                        throw new IOException("the server refused session " + channels.size());
                    }
                }
            }
            return new RawSessions(channels, Math.max(1000, negotiatedTimeoutMs / 3));
        } catch (IOException | RuntimeException e) {
            for (SocketChannel channel : channels) {
                channel.close();
            }
            throw new IOException("opening " + count + " sessions on " + host + ":" + port + " (" + channels.size()
                    + " connected): " + e.getMessage(), e);
        }
    }

    public int size() {
        return channels.size();
    }

    /**
     * Every session sets a one-shot exists watch on {@code path}; returns once all have their reply.
     * The watches are new, so the next change of the node notifies every session once.
     */
    public void armExistsWatches(String path, long timeoutMs) throws IOException, InterruptedException {
        notificationsSeen.set(0);
        repliesPending.addAndGet(channels.size());
        for (SocketChannel channel : channels) {
            send(channel, OpCode.EXISTS, w -> new ExistsRequest(path, true).writeTo(w));
        }
        awaitReplies(timeoutMs);
    }

    /** Session 0 changes {@code path}; returns System.nanoTime just before the request went out. */
    public long setData(String path, byte[] data) throws IOException {
        repliesPending.incrementAndGet();
        long sentNs = System.nanoTime();
        send(channels.get(0), OpCode.SET_DATA, w -> new SetDataRequest(path, data, -1).writeTo(w));
        return sentNs;
    }

    /** Waits until {@code expected} watch notifications arrived; returns when the last did (System.nanoTime). */
    public long awaitNotifications(int expected, long timeoutMs) throws IOException, InterruptedException {
        long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (notificationsSeen.get() < expected) {
            if (System.nanoTime() > deadlineNs || !open) {
                throw new IOException(notificationsSeen.get() + " of " + expected + " watch notifications"
                        + (open ? " within " + timeoutMs + " ms" : "; the sessions stopped reading: " + readerFailure));
            }
            Thread.sleep(0, 200_000);
        }
        return lastNotificationNs.get();
    }

    /** Replies with an error code other than 0 since the sessions opened. */
    public int failedReplies() {
        return failedReplies.get();
    }

    private void awaitReplies(long timeoutMs) throws IOException, InterruptedException {
        long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (repliesPending.get() > 0) {
            if (System.nanoTime() > deadlineNs || !open) {
                throw new IOException(repliesPending.get() + " replies missing"
                        + (open ? " after " + timeoutMs + " ms" : "; the sessions stopped reading: " + readerFailure));
            }
            Thread.sleep(1);
        }
    }

    @FunctionalInterface
    private interface Body {
        void write(JuteWriter writer);
    }

    private void send(SocketChannel channel, int opCode, Body body) throws IOException {
        JuteWriter writer = new JuteWriter();
        synchronized (this) {
            new RequestHeader(nextXid++, opCode).writeTo(writer);
        }
        body.write(writer);
        synchronized (channel) {
            writeFully(channel, frame(writer.toByteArray()));
        }
    }

    private static ByteBuffer pingFrame() {
        JuteWriter ping = new JuteWriter();
        new RequestHeader(OpCode.XID_PING, OpCode.PING).writeTo(ping);
        return frame(ping.toByteArray());
    }

    private void pingLoop(int intervalMs) {
        byte[] frame = pingFrame().array();
        while (open) {
            try {
                Thread.sleep(intervalMs);
                for (SocketChannel channel : channels) {
                    synchronized (channel) {
                        writeFully(channel, ByteBuffer.wrap(frame));
                    }
                }
            } catch (InterruptedException | IOException e) {
                return;
            }
        }
    }

    private void readLoop() {
        try {
            while (open) {
                selector.select(100);
                for (SelectionKey key : selector.selectedKeys()) {
                    FrameReader frames = (FrameReader) key.attachment();
                    ByteBuffer frame;
                    while ((frame = frames.read((SocketChannel) key.channel())) != null) {
                        onFrame(frame);
                    }
                }
                selector.selectedKeys().clear();
            }
        } catch (IOException | RuntimeException e) {
            if (open) {
                readerFailure = e.toString();
                open = false; // waiters see it and fail rather than time out
            }
        }
    }

    private void onFrame(ByteBuffer frame) {
        int xid = frame.getInt();
        frame.getLong(); // zxid
        int err = frame.getInt();
        if (xid == OpCode.XID_NOTIFICATION) {
            lastNotificationNs.set(System.nanoTime());
            notificationsSeen.incrementAndGet();
        } else if (xid != OpCode.XID_PING) {
            if (err != 0) {
                failedReplies.incrementAndGet();
            }
            repliesPending.decrementAndGet();
        }
    }

    /** Assembles length-prefixed frames from a non-blocking socket. */
    private static final class FrameReader {
        private final ByteBuffer length = ByteBuffer.allocate(4);
        private ByteBuffer body;

        /** The next complete frame, or null when the socket has no more bytes for now. */
        ByteBuffer read(SocketChannel channel) throws IOException {
            if (body == null) {
                if (channel.read(length) < 0) {
                    throw new EOFException("the server closed a session's connection");
                }
                if (length.hasRemaining()) {
                    return null;
                }
                body = ByteBuffer.allocate(length.flip().getInt());
                length.clear();
            }
            if (channel.read(body) < 0) {
                throw new EOFException("the server closed a session's connection");
            }
            if (body.hasRemaining()) {
                return null;
            }
            ByteBuffer complete = body.flip();
            body = null;
            return complete;
        }
    }

    private static ByteBuffer frame(byte[] payload) {
        ByteBuffer frame = ByteBuffer.allocate(4 + payload.length);
        frame.putInt(payload.length).put(payload).flip();
        return frame;
    }

    private static void writeFully(SocketChannel channel, ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            if (channel.write(buffer) == 0) {
                Thread.onSpinWait(); // the socket's send buffer is full for a moment
            }
        }
    }

    private static ByteBuffer readFrameBlocking(SocketChannel channel) throws IOException {
        ByteBuffer length = ByteBuffer.allocate(4);
        readFully(channel, length);
        ByteBuffer body = ByteBuffer.allocate(length.flip().getInt());
        readFully(channel, body);
        return body.flip();
    }

    private static void readFully(SocketChannel channel, ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            if (channel.read(buffer) < 0) {
                throw new EOFException("connection closed during the handshake");
            }
        }
    }

    /** Closes every session (closeSession requests, a few hundred at a time), then the sockets. */
    @Override
    public void close() throws InterruptedException {
        try {
            for (int batchStart = 0; batchStart < channels.size(); batchStart += PIPELINE) {
                int batchEnd = Math.min(channels.size(), batchStart + PIPELINE);
                repliesPending.addAndGet(batchEnd - batchStart);
                for (SocketChannel channel : channels.subList(batchStart, batchEnd)) {
                    send(channel, OpCode.CLOSE_SESSION, w -> { });
                }
                awaitReplies(IO_TIMEOUT_MS);
            }
        } catch (IOException e) {
            // the sessions still open expire on the server
        } finally {
            open = false;
            pinger.interrupt();
            reader.join(1000);
            for (SocketChannel channel : channels) {
                try {
                    channel.close();
                } catch (IOException ignored) {
                    // closing anyway
                }
            }
            try {
                selector.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }
}
