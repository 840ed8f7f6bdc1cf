package dev.warden.chaos.net;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP relay from node {@code from} to node {@code to}: it listens on a loopback port, and for
 * each connection accepted opens one to the target and copies bytes both ways, each direction
 * obeying its {@link LinkState} in the {@link LinkTable} (from→to for what the connecting side
 * sends, to→from for the replies). It stands in for the network between two processes: the
 * kernel here has no netem, and a relay needs no privileges. Between members in network
 * namespaces a relay only delays and loses; cuts are the kernel's (iptables rules in the
 * namespaces), so it leaves blocked links to them ({@code kernelCuts}).
 */
public final class Relay implements AutoCloseable {
    private static final int CHUNK_BYTES = 64 * 1024;
    /** A direction holds at most this much before it stops reading, as a full socket buffer would. */
    private static final long MAX_HELD_BYTES = 8L << 20;
    private static final long POLL_MS = 5;

    private final int from;
    private final int to;
    private final InetSocketAddress target;
    /** The address outbound connections come from; null for any. */
    private final InetAddress source;
    private final boolean kernelCuts;
    private final LinkTable links;
    private final ServerSocket listener;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final Random random;
    private volatile boolean closed;

    /** A relay on loopback to a loopback port, holding what a blocked link carries. */
    public Relay(int from, int to, int listenPort, int targetPort, LinkTable links, long seed) throws IOException {
        this(from, to, new InetSocketAddress(InetAddress.getLoopbackAddress(), listenPort),
                new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort), null, false, links, seed);
    }

    /**
     * @param source     the local address outbound connections are made from (so the target's
     *                   firewall can tell senders apart), or null for any
     * @param kernelCuts blocked links are cut by the kernel, not held here
     */
    public Relay(int from, int to, InetSocketAddress listenAt, InetSocketAddress target, InetAddress source,
                 boolean kernelCuts, LinkTable links, long seed) throws IOException {
        this.from = from;
        this.to = to;
        this.target = target;
        this.source = source;
        this.kernelCuts = kernelCuts;
        this.links = links;
        this.random = new Random(seed);
        this.listener = new ServerSocket();
        listener.setReuseAddress(true);
        listener.bind(listenAt, 64);
        Thread acceptor = new Thread(this::acceptLoop, "relay-" + from + "-" + to + "-" + listenAt.getPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public int listenPort() {
        return listener.getLocalPort();
    }

    /** Closes every connection through this relay now (both ends see a reset), as a crashed router would. */
    public void resetConnections() {
        for (Socket socket : open) {
            closeQuietly(socket);
        }
    }

    private void acceptLoop() {
        while (!closed) {
            Socket inbound;
            try {
                inbound = listener.accept();
            } catch (IOException e) {
                return;
            }
            Thread connector = new Thread(() -> connect(inbound), "relay-connect-" + from + "-" + to);
            connector.setDaemon(true);
            connector.start();
        }
    }

    private void connect(Socket inbound) {
        Socket outbound = new Socket();
        try {
            inbound.setTcpNoDelay(true);
            outbound.setTcpNoDelay(true);
            if (source != null) {
                outbound.bind(new InetSocketAddress(source, 0));
            }
            outbound.connect(target, 5_000);
        } catch (IOException refused) {
            // the target is down: the connecting side sees its connection closed, as with a refused connect
            closeQuietly(inbound);
            closeQuietly(outbound);
            return;
        }
        open.add(inbound);
        open.add(outbound);
        if (closed) {
            resetConnections();
            return;
        }
        long seed = random.nextLong();
        new Direction(inbound, outbound, from, to, seed).start();
        new Direction(outbound, inbound, to, from, seed + 1).start();
    }

    /** One way of one connection: a reader stamping chunks with their delivery time, a writer delivering them. */
    private final class Direction {
        private record Chunk(byte[] bytes, int length, long dueNs) {
        }

        private final Socket source;
        private final Socket sink;
        private final int linkFrom;
        private final int linkTo;
        private final Random jitter;
        private final Deque<Chunk> queue = new ArrayDeque<>();
        private long heldBytes;
        private long lastDueNs;
        private boolean sourceDone;

        Direction(Socket source, Socket sink, int linkFrom, int linkTo, long seed) {
            this.source = source;
            this.sink = sink;
            this.linkFrom = linkFrom;
            this.linkTo = linkTo;
            this.jitter = new Random(seed);
        }

        void start() {
            String name = "relay-" + linkFrom + "-" + linkTo;
            Thread reader = new Thread(this::readLoop, name + "-read");
            Thread writer = new Thread(this::writeLoop, name + "-write");
            reader.setDaemon(true);
            writer.setDaemon(true);
            reader.start();
            writer.start();
        }

        private void readLoop() {
            try (InputStream in = source.getInputStream()) {
                while (true) {
                    byte[] buffer = new byte[CHUNK_BYTES];
                    int read = in.read(buffer);
                    if (read < 0) {
                        break;
                    }
                    LinkState state = links.get(linkFrom, linkTo);
                    long extraMs = state.delayMs();
                    if (state.jitterMs() > 0) {
                        extraMs += (long) (jitter.nextDouble() * state.jitterMs());
                    }
                    if (state.lossRate() > 0 && jitter.nextDouble() < state.lossRate()) {
                        extraMs += 200 + jitter.nextInt(800);
                    }
                    synchronized (this) {
                        while (heldBytes > MAX_HELD_BYTES && !closed) {
                            wait(50);
                        }
                        // TCP delivers in order: a chunk is never due before the one ahead of it
                        long dueNs = Math.max(System.nanoTime() + extraMs * 1_000_000L, lastDueNs);
                        lastDueNs = dueNs;
                        queue.addLast(new Chunk(buffer, read, dueNs));
                        heldBytes += read;
                        notifyAll();
                    }
                }
            } catch (IOException | InterruptedException e) {
                // the connection is gone; the writer closes the other side once the queue is drained
            }
            synchronized (this) {
                sourceDone = true;
                notifyAll();
            }
        }

        private void writeLoop() {
            try (OutputStream out = sink.getOutputStream()) {
                while (true) {
                    Chunk chunk;
                    synchronized (this) {
                        while (queue.isEmpty() && !sourceDone) {
                            wait(100);
                        }
                        if (queue.isEmpty()) {
                            break;
                        }
                        chunk = queue.peekFirst();
                    }
                    while ((!kernelCuts && links.get(linkFrom, linkTo).blocked()) || System.nanoTime() < chunk.dueNs()) {
                        if (closed || sink.isClosed()) {
                            return;
                        }
                        Thread.sleep(POLL_MS);
                    }
                    out.write(chunk.bytes(), 0, chunk.length());
                    out.flush();
                    synchronized (this) {
                        queue.removeFirst();
                        heldBytes -= chunk.length();
                        notifyAll();
                    }
                }
            } catch (IOException | InterruptedException e) {
                // the sink is gone
            } finally {
                closeQuietly(source);
                closeQuietly(sink);
                open.remove(source);
                open.remove(sink);
            }
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing is all we wanted
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            listener.close();
        } catch (IOException ignored) {
            // the port is released either way
        }
        resetConnections();
    }
}
