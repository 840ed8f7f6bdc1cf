package dev.warden.recipes.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP forwarder on a free loopback port. {@link #cut()} drops every connection and refuses
 * new ones, so a client behind it can neither reach the server nor close its session: the
 * server expires the session after its timeout, as it would for a crashed process.
 */
public final class CuttableProxy implements AutoCloseable {
    private final ServerSocket listener;
    private final String targetHost;
    private final int targetPort;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile boolean cut;

    private CuttableProxy(ServerSocket listener, String targetHost, int targetPort) {
        this.listener = listener;
        this.targetHost = targetHost;
        this.targetPort = targetPort;
    }

    public static CuttableProxy start(String targetHost, int targetPort) throws IOException {
        ServerSocket listener = new ServerSocket();
        listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        CuttableProxy proxy = new CuttableProxy(listener, targetHost, targetPort);
        Thread acceptor = new Thread(proxy::acceptLoop, "cuttable-proxy-" + listener.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
        return proxy;
    }

    public String connectString() {
        return "127.0.0.1:" + listener.getLocalPort();
    }

    /** Drops all traffic from now on. */
    public void cut() {
        cut = true;
        for (Socket socket : sockets) {
            closeQuietly(socket);
        }
    }

    private void acceptLoop() {
        while (!listener.isClosed()) {
            try {
                Socket inbound = listener.accept();
                if (cut) {
                    closeQuietly(inbound);
                    continue;
                }
                Socket outbound = new Socket(targetHost, targetPort);
                sockets.add(inbound);
                sockets.add(outbound);
                pump(inbound, outbound);
                pump(outbound, inbound);
            } catch (IOException e) {
                if (listener.isClosed()) {
                    return;
                }
            }
        }
    }

    private void pump(Socket from, Socket to) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[8192];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int read;
                while (!cut && (read = in.read(buffer)) >= 0) {
                    out.write(buffer, 0, read);
                }
            } catch (IOException ignored) {
                // either side closed; the other pump closes its socket too
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "cuttable-proxy-pump");
        thread.setDaemon(true);
        thread.start();
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    @Override
    public void close() {
        cut();
        try {
            listener.close();
        } catch (IOException ignored) {
            // nothing to do
        }
    }
}
