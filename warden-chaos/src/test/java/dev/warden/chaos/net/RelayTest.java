package dev.warden.chaos.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.cli.cluster.FreePorts;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RelayTest {
    private ServerSocket echo;
    private Relay relay;
    private final LinkTable links = new LinkTable();

    @BeforeEach
    void startEchoServerBehindARelay() throws IOException {
        echo = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
        Thread server = new Thread(() -> {
            try (Socket s = echo.accept()) {
                s.getInputStream().transferTo(s.getOutputStream());
            } catch (IOException ignored) {
                // the test is over
            }
        });
        server.setDaemon(true);
        server.start();
        relay = new Relay(1, 2, FreePorts.pick(1).get(0), echo.getLocalPort(), links, 7);
    }

    @AfterEach
    void close() throws IOException {
        relay.close();
        echo.close();
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), relay.listenPort());
        socket.setSoTimeout(300);
        return socket;
    }

    private static int roundTrip(Socket socket, int value) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(value);
        out.flush();
        InputStream in = socket.getInputStream();
        return in.read();
    }

    @Test
    void aCleanLinkPassesBytesBothWays() throws IOException {
        try (Socket socket = connect()) {
            assertEquals(42, roundTrip(socket, 42));
        }
    }

    @Test
    void aBlockedDirectionHoldsBytesUntilItHeals() throws IOException {
        try (Socket socket = connect()) {
            assertEquals(1, roundTrip(socket, 1));
            links.set(1, 2, new LinkState(true, 0, 0, 0));
            socket.getOutputStream().write(2);
            assertThrows(SocketTimeoutException.class, () -> socket.getInputStream().read());
            links.healAll();
            socket.setSoTimeout(2_000);
            assertEquals(2, socket.getInputStream().read(), "held bytes arrive after the heal, in order");
        }
    }

    @Test
    void blockingOnlyTheReplyDirectionIsOneWay() throws IOException {
        try (Socket socket = connect()) {
            links.set(2, 1, new LinkState(true, 0, 0, 0));
            socket.getOutputStream().write(5);
            assertThrows(SocketTimeoutException.class, () -> socket.getInputStream().read());
            links.set(2, 1, LinkState.CLEAN);
            socket.setSoTimeout(2_000);
            assertEquals(5, socket.getInputStream().read());
        }
    }

    @Test
    void delayIsAddedToEachChunk() throws IOException {
        links.set(1, 2, new LinkState(false, 400, 0, 0));
        try (Socket socket = connect()) {
            socket.setSoTimeout(3_000);
            long start = System.nanoTime();
            assertEquals(9, roundTrip(socket, 9));
            long tookMs = (System.nanoTime() - start) / 1_000_000;
            assertTrue(tookMs >= 390, "took " + tookMs + " ms");
        }
    }

    @Test
    void resetClosesTheConnection() throws IOException {
        try (Socket socket = connect()) {
            assertEquals(3, roundTrip(socket, 3));
            relay.resetConnections();
            socket.setSoTimeout(2_000);
            int read;
            try {
                read = socket.getInputStream().read();
            } catch (IOException reset) {
                read = -1;
            }
            assertEquals(-1, read);
        }
    }
}
