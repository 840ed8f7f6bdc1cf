package dev.warden.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback TCP relay in front of one server, for putting clients (or members) in trouble:
 * <ul>
 *   <li>{@link #pause()} holds every byte both ways, a connection's close included, with the
 *       sockets left open: each side sees silence, not a reset, as in a partition;
 *       {@link #pauseReplies()} lets requests through but holds the answers; {@link #resume()}
 *       ends either and delivers what was held;</li>
 *   <li>{@link #drop()} resets every relayed connection (held bytes are discarded); new ones are
 *       still relayed;</li>
 *   <li>{@link #refuse(boolean)} closes new connections as they arrive; {@link #cut()} does that
 *       and drops the open ones, so a client can neither reach the server nor close its
 *       session: the server expires it, as for a crashed process.</li>
 * </ul>
 * Bounded: at most {@value #MAX_CONNECTIONS} relayed connections at once, each with two threads
 * and fixed-size buffers; more are closed as they arrive.
 */
public final class FaultProxy implements AutoCloseable {
    public static final int MAX_CONNECTIONS = 32;
    private static final int BUFFER_BYTES = 16 * 1024;
    private static final int CONNECT_TIMEOUT_MS = 5_000;

    private final ServerSocket listener;
    private final InetSocketAddress target;
    private final Object lock = new Object();
    private final List<Socket> sockets = new ArrayList<>();
    private final AtomicInteger accepted = new AtomicInteger();
    private final Thread acceptor;
    private boolean paused;
    private boolean repliesPaused;
    private boolean refusing;
    private boolean closed;

    /** Relays to {@code targetHost:targetPort} (on this machine); accepts at once. */
    public FaultProxy(String targetHost, int targetPort) {
        target = new InetSocketAddress(targetHost, targetPort);
        if (target.getAddress() == null || !target.getAddress().isLoopbackAddress()) {
            throw new IllegalArgumentException("the proxy only relays to loopback: " + target);
        }
        try {
            listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        acceptor = daemon(this::acceptLoop, "fault-proxy-accept-" + listener.getLocalPort());
        acceptor.start();
    }

    /** Relays to {@code targetPort} on the loopback address. */
    public FaultProxy(int targetPort) {
        this("127.0.0.1", targetPort);
    }

    /** Relays to {@code host:port}. */
    public static FaultProxy start(String connectString) {
        int colon = connectString.lastIndexOf(':');
        return new FaultProxy(connectString.substring(0, colon), Integer.parseInt(connectString.substring(colon + 1)));
    }

    /** The proxy's own address as a connect string. */
    public String address() {
        return "127.0.0.1:" + listener.getLocalPort();
    }

    public int port() {
        return listener.getLocalPort();
    }

    /** Connections accepted so far, refused ones included. */
    public int acceptedConnections() {
        return accepted.get();
    }

    public void pause() {
        synchronized (lock) {
            paused = true;
        }
    }

    public void pauseReplies() {
        synchronized (lock) {
            repliesPaused = true;
        }
    }

    public void resume() {
        synchronized (lock) {
            paused = false;
            repliesPaused = false;
            lock.notifyAll();
        }
    }

    /** While true, new connections are closed as soon as they are accepted. */
    public void refuse(boolean value) {
        synchronized (lock) {
            refusing = value;
        }
    }

    /** Resets every open connection; held bytes are discarded, never delivered. */
    public void drop() {
        List<Socket> toClose;
        synchronized (lock) {
            toClose = new ArrayList<>(sockets);
            sockets.clear();
            lock.notifyAll();
        }
        toClose.forEach(FaultProxy::closeQuietly);
    }

    /** Refuses every later connection and resets the open ones. */
    public void cut() {
        refuse(true);
        drop();
    }

    private void acceptLoop() {
        while (true) {
            Socket downstream;
            try {
                downstream = listener.accept();
            } catch (IOException e) {
                return; // the listener was closed
            }
            accepted.incrementAndGet();
            try {
                relay(downstream);
            } catch (IOException e) {
                closeQuietly(downstream); // the client sees the close and tries again
            }
        }
    }

    private void relay(Socket downstream) throws IOException {
        synchronized (lock) {
            if (closed || refusing || sockets.size() >= 2 * MAX_CONNECTIONS) {
                throw new IOException("refused");
            }
        }
        Socket upstream = new Socket();
        try {
            upstream.connect(target, CONNECT_TIMEOUT_MS);
        } catch (IOException e) {
            closeQuietly(upstream);
            throw e;
        }
        downstream.setTcpNoDelay(true);
        upstream.setTcpNoDelay(true);
        synchronized (lock) {
            sockets.add(downstream);
            sockets.add(upstream);
        }
        daemon(() -> pump(downstream, upstream, false), "fault-proxy-up-" + downstream.getPort()).start();
        daemon(() -> pump(upstream, downstream, true), "fault-proxy-down-" + downstream.getPort()).start();
    }

    private void pump(Socket from, Socket to, boolean reply) {
        byte[] buffer = new byte[BUFFER_BYTES];
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            while (true) {
                int read = in.read(buffer);
                if (!awaitOpen(reply, from)) {
                    break; // dropped while held
                }
                if (read < 0) {
                    break; // a close is held back too while paused, so a paused peer sees nothing
                }
                out.write(buffer, 0, read);
                out.flush();
            }
        } catch (IOException | InterruptedException e) {
            // one side went away, or the proxy dropped the pair
        } finally {
            closeQuietly(from);
            closeQuietly(to);
            synchronized (lock) {
                sockets.remove(from);
                sockets.remove(to);
            }
        }
    }

    /** Waits while this direction is held; false if the connection was dropped meanwhile. */
    private boolean awaitOpen(boolean reply, Socket from) throws InterruptedException {
        synchronized (lock) {
            while ((paused || (reply && repliesPaused)) && !closed && sockets.contains(from)) {
                lock.wait(100);
            }
            return !closed && sockets.contains(from);
        }
    }

    private static Thread daemon(Runnable body, String name) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        return thread;
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            // already closed
        }
    }

    @Override
    public void close() {
        synchronized (lock) {
            closed = true;
            lock.notifyAll();
        }
        closeQuietly(listener);
        drop();
        try {
            acceptor.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
