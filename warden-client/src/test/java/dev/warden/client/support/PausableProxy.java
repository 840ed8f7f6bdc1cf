package dev.warden.client.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback TCP proxy for fault injection. {@link #pause()} stops forwarding in both
 * directions while keeping sockets open (a partition the client cannot see as a reset);
 * {@link #dropConnections()} resets them; {@link #refuse(boolean)} closes new ones at once.
 */
public final class PausableProxy implements AutoCloseable {
    private final ServerSocket listener;
    private final InetSocketAddress target;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final Object gate = new Object();
    private final AtomicInteger accepted = new AtomicInteger();
    private volatile boolean paused;
    private volatile boolean repliesPaused;
    private volatile boolean refusing;
    private volatile boolean closed;

    public PausableProxy(int targetPort) {
        try {
            listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        target = new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort);
        Thread acceptor = new Thread(this::acceptLoop, "proxy-accept-" + listener.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public int port() {
        return listener.getLocalPort();
    }

    public String address() {
        return "127.0.0.1:" + port();
    }

    /** Connections accepted so far (lets tests check that no reconnect happened). */
    public int acceptedConnections() {
        return accepted.get();
    }

    public void pause() {
        paused = true;
    }

    /** Holds only server-to-client bytes: requests still reach the server, replies do not. */
    public void pauseReplies() {
        repliesPaused = true;
    }

    public void resume() {
        synchronized (gate) {
            paused = false;
            repliesPaused = false;
            gate.notifyAll();
        }
    }

    public void refuse(boolean value) {
        refusing = value;
    }

    public void dropConnections() {
        for (Socket socket : sockets) {
            closeQuietly(socket);
        }
        sockets.clear();
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket client = listener.accept();
                accepted.incrementAndGet();
                if (refusing) {
                    closeQuietly(client);
                    continue;
                }
                Socket server = new Socket();
                server.connect(target, 2000);
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
                sockets.add(client);
                sockets.add(server);
                pump(client, server, false);
                pump(server, client, true);
            } catch (IOException e) {
                if (closed) {
                    return;
                }
            }
        }
    }

    private void pump(Socket from, Socket to, boolean downstream) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int count;
                while ((count = in.read(buffer)) >= 0) {
                    awaitResumed(downstream);
                    out.write(buffer, 0, count);
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                // the other side closed or the proxy dropped the connection
            } finally {
                closeQuietly(from);
                closeQuietly(to);
                sockets.remove(from);
                sockets.remove(to);
            }
        }, "proxy-pump");
        thread.setDaemon(true);
        thread.start();
    }

    private void awaitResumed(boolean downstream) throws InterruptedException {
        synchronized (gate) {
            while ((paused || (downstream && repliesPaused)) && !closed) {
                gate.wait(100);
            }
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }

    @Override
    public void close() {
        closed = true;
        resume();
        closeQuietly(listener);
        dropConnections();
    }

    private static void closeQuietly(ServerSocket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }
}
