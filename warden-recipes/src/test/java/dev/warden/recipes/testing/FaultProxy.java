package dev.warden.recipes.testing;

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

/**
 * A loopback TCP relay in front of one server, for putting a single client in trouble:
 * <ul>
 *   <li>{@link #pause()} stops relaying both ways with the sockets left open (the client sees
 *       silence, not a reset, as in a partition); {@link #pauseReplies()} lets requests through
 *       but holds the answers; {@link #resume()} ends either;</li>
 *   <li>{@link #drop()} resets every connection; the client may reconnect through the proxy;</li>
 *   <li>{@link #cut()} resets every connection and refuses new ones, so the client can neither
 *       reach the server nor close its session: the server expires it, as for a crashed process.</li>
 * </ul>
 */
public final class FaultProxy implements AutoCloseable {
    private static final int CONNECT_TIMEOUT_MS = 2000;

    private final ServerSocket listener;
    private final InetSocketAddress target;
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private final Object gate = new Object();
    private volatile boolean paused;
    private volatile boolean repliesPaused;
    private volatile boolean cut;
    private volatile boolean closed;

    /** Relays to {@code targetHost:targetPort}; starts accepting at once. */
    public FaultProxy(String targetHost, int targetPort) {
        try {
            listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        target = new InetSocketAddress(targetHost, targetPort);
        startDaemon(this::acceptLoop, "fault-proxy-accept-" + listener.getLocalPort());
    }

    /** The proxy's own address, as a connect string. */
    public String address() {
        return "127.0.0.1:" + listener.getLocalPort();
    }

    public void pause() {
        paused = true;
    }

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

    /** Resets every open connection; new ones are still relayed. */
    public void drop() {
        for (Socket socket : open) {
            closeQuietly(socket);
        }
        open.clear();
    }

    /** Resets every open connection and refuses all later ones. */
    public void cut() {
        cut = true;
        drop();
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket downstream = listener.accept();
                if (cut) {
                    closeQuietly(downstream);
                    continue;
                }
                Socket upstream = new Socket();
                try {
                    upstream.connect(target, CONNECT_TIMEOUT_MS);
                } catch (IOException e) {
                    closeQuietly(downstream);
                    closeQuietly(upstream);
                    continue;
                }
                downstream.setTcpNoDelay(true);
                upstream.setTcpNoDelay(true);
                open.add(downstream);
                open.add(upstream);
                startDaemon(() -> relay(downstream, upstream, false), "fault-proxy-up");
                startDaemon(() -> relay(upstream, downstream, true), "fault-proxy-down");
            } catch (IOException e) {
                if (closed) {
                    return;
                }
            }
        }
    }

    private void relay(Socket from, Socket to, boolean isReply) {
        byte[] buffer = new byte[16 * 1024];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            int count;
            while ((count = in.read(buffer)) >= 0) {
                awaitOpen(isReply);
                if (cut) {
                    break;
                }
                out.write(buffer, 0, count);
                out.flush();
            }
        } catch (IOException | InterruptedException e) {
            // One side closed or the proxy dropped the pair.
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    private void awaitOpen(boolean isReply) throws InterruptedException {
        synchronized (gate) {
            while ((paused || (isReply && repliesPaused)) && !closed) {
                gate.wait(50);
            }
        }
    }

    private static void startDaemon(Runnable body, String name) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        thread.start();
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
        closed = true;
        cut = true;
        resume();
        closeQuietly(listener);
        drop();
    }
}
