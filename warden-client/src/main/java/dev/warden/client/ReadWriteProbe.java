package dev.warden.client;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Asks a server whether it serves read-write: the four-letter word {@code isro} over a plain
 * socket, answered {@code rw}, {@code ro} or {@code null}, as ZooKeeper's client asks it while
 * it is connected to a read-only member. The blocking exchange runs on a small shared pool of
 * daemon threads, never on a client's I/O thread.
 */
final class ReadWriteProbe {
    private static final int MAX_ANSWER_BYTES = 16;
    private static final ExecutorService PROBES = new ThreadPoolExecutor(0, 4, 30, TimeUnit.SECONDS,
            new SynchronousQueue<>(), runnable -> {
                Thread thread = new Thread(runnable, "warden-client-rw-probe");
                thread.setDaemon(true);
                return thread;
            }, new ThreadPoolExecutor.CallerRunsPolicy());

    private ReadWriteProbe() {
    }

    /** Completes with true if {@code server} answers {@code rw} within {@code timeoutMs}; false otherwise. */
    static CompletableFuture<Boolean> servesReadWrite(InetSocketAddress server, int timeoutMs) {
        CompletableFuture<Boolean> answer = new CompletableFuture<>();
        PROBES.execute(() -> answer.complete(ask(server, timeoutMs)));
        return answer;
    }

    private static boolean ask(InetSocketAddress server, int timeoutMs) {
        try (Socket socket = new Socket()) {
            // the connect string's addresses stay unresolved until used (the I/O thread resolves its own)
            socket.connect(server.isUnresolved() ? new InetSocketAddress(server.getHostString(), server.getPort())
                    : server, timeoutMs);
            socket.setSoTimeout(timeoutMs);
            socket.getOutputStream().write("isro".getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            InputStream in = socket.getInputStream();
            byte[] reply = in.readNBytes(MAX_ANSWER_BYTES);
            return "rw".equals(new String(reply, StandardCharsets.US_ASCII).strip());
        } catch (IOException unreachable) {
            return false;
        }
    }
}
