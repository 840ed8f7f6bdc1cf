package dev.warden.server.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * A loopback TCP relay between a client and a server that can be frozen: while frozen, bytes
 * are held back in both directions (and TCP buffers fill), so the client looks silent to the
 * server and vice versa, without either side seeing the connection close. Bounded: at most
 * {@link #MAX_CONNECTIONS} relayed connections, each with two threads and fixed-size buffers.
 */
public final class PausableProxy implements AutoCloseable {
    static final int MAX_CONNECTIONS = 32;
    private static final int BUFFER_BYTES = 16 * 1024;
    private static final int CONNECT_TIMEOUT_MS = 5_000;

    private final ServerSocket listener;
    private final InetSocketAddress upstream;
    private final Object lock = new Object();
    private final List<Socket> sockets = new ArrayList<>();
    private final Thread acceptor;
    private boolean frozen;
    private boolean closed;

    private PausableProxy(ServerSocket listener, InetSocketAddress upstream) {
        this.listener = listener;
        this.upstream = upstream;
        this.acceptor = new Thread(this::acceptLoop, "proxy-accept-" + listener.getLocalPort());
        acceptor.setDaemon(true);
    }

    /** Starts a relay to {@code upstreamConnectString} (host:port on loopback). */
    public static PausableProxy start(String upstreamConnectString) throws IOException {
        String[] hostPort = upstreamConnectString.split(":");
        InetSocketAddress upstream = new InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1]));
        if (!upstream.getAddress().isLoopbackAddress()) {
            throw new IllegalArgumentException("the proxy only relays to loopback: " + upstream);
        }
        ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        PausableProxy proxy = new PausableProxy(listener, upstream);
        proxy.acceptor.start();
        return proxy;
    }

    public String connectString() {
        return "127.0.0.1:" + listener.getLocalPort();
    }

    /** Holds back all traffic, including that of connections accepted from now on. */
    public void freeze() {
        synchronized (lock) {
            frozen = true;
        }
    }

    public void resume() {
        synchronized (lock) {
            frozen = false;
            lock.notifyAll();
        }
    }

    /** Closes every relayed connection; held-back bytes are discarded, never delivered. */
    void dropConnections() {
        List<Socket> toClose;
        synchronized (lock) {
            toClose = new ArrayList<>(sockets);
            sockets.clear();
        }
        toClose.forEach(PausableProxy::closeQuietly);
    }

    private void acceptLoop() {
        while (true) {
            Socket downstream;
            try {
                downstream = listener.accept();
            } catch (IOException e) {
                return; // listener closed
            }
            try {
                relay(downstream);
            } catch (IOException e) {
                closeQuietly(downstream); // the client will see the close and retry
            }
        }
    }

    private void relay(Socket downstream) throws IOException {
        synchronized (lock) {
            if (closed || sockets.size() >= 2 * MAX_CONNECTIONS) {
                throw new IOException("proxy closed or connection limit reached");
            }
        }
        Socket upstreamSocket = new Socket();
        upstreamSocket.connect(upstream, CONNECT_TIMEOUT_MS);
        synchronized (lock) {
            sockets.add(downstream);
            sockets.add(upstreamSocket);
        }
        startPump(downstream, upstreamSocket, "up");
        startPump(upstreamSocket, downstream, "down");
    }

    private void startPump(Socket from, Socket to, String direction) {
        Thread pump = new Thread(() -> pump(from, to), "proxy-" + direction + "-" + from.getPort());
        pump.setDaemon(true);
        pump.start();
    }

    private void pump(Socket from, Socket to) {
        byte[] buffer = new byte[BUFFER_BYTES];
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            while (true) {
                int read = in.read(buffer);
                awaitUnfrozen(); // a close is held back too, so a frozen peer sees nothing at all
                if (read < 0) {
                    break;
                }
                out.write(buffer, 0, read);
                out.flush();
            }
        } catch (IOException | InterruptedException e) {
            // one side went away; close both below
        } finally {
            closeQuietly(from);
            closeQuietly(to);
            synchronized (lock) {
                sockets.remove(from);
                sockets.remove(to);
            }
        }
    }

    private void awaitUnfrozen() throws InterruptedException {
        synchronized (lock) {
            while (frozen && !closed) {
                lock.wait();
            }
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // nothing useful to do while tearing down
        }
    }

    @Override
    public void close() throws IOException, InterruptedException {
        synchronized (lock) {
            closed = true;
            lock.notifyAll();
        }
        listener.close();
        dropConnections();
        acceptor.join(5_000);
    }
}
