package dev.warden.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

/** The proxy relays, holds, drops and refuses as it says, in front of an echo server. */
class FaultProxyTest {
    private ServerSocket echo;
    private FaultProxy proxy;

    @BeforeEach
    void startEcho() throws IOException {
        echo = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(() -> {
            while (true) {
                try {
                    Socket socket = echo.accept();
                    Thread pump = new Thread(() -> {
                        try (socket; InputStream in = socket.getInputStream(); OutputStream out = socket.getOutputStream()) {
                            in.transferTo(out);
                        } catch (IOException e) {
                            // closed
                        }
                    });
                    pump.setDaemon(true);
                    pump.start();
                } catch (IOException e) {
                    return;
                }
            }
        });
        acceptor.setDaemon(true);
        acceptor.start();
        proxy = new FaultProxy(echo.getLocalPort());
    }

    @AfterEach
    void stop() throws IOException {
        proxy.close();
        echo.close();
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), proxy.port());
        socket.setSoTimeout(300);
        return socket;
    }

    private static int roundTrip(Socket socket, int value) throws IOException {
        socket.getOutputStream().write(value);
        return socket.getInputStream().read();
    }

    @Test
    void relaysAndHoldsWhilePausedThenDeliversWhatWasHeld() throws IOException {
        try (Socket socket = connect()) {
            assertEquals(1, roundTrip(socket, 1));
            proxy.pause();
            socket.getOutputStream().write(2);
            assertThrows(SocketTimeoutException.class, () -> socket.getInputStream().read(), "held while paused");
            proxy.resume();
            assertEquals(2, socket.getInputStream().read());
        }
    }

    @Test
    void pausedRepliesLetRequestsThroughButHoldTheAnswers() throws IOException {
        try (Socket socket = connect()) {
            proxy.pauseReplies();
            socket.getOutputStream().write(7);
            assertThrows(SocketTimeoutException.class, () -> socket.getInputStream().read());
            proxy.resume();
            assertEquals(7, socket.getInputStream().read());
        }
    }

    @Test
    void dropResetsOpenConnectionsAndLaterOnesAreRelayed() throws IOException {
        try (Socket socket = connect()) {
            assertEquals(3, roundTrip(socket, 3));
            proxy.drop();
            assertEquals(-1, socket.getInputStream().read(), "the dropped connection is closed");
        }
        try (Socket again = connect()) {
            assertEquals(4, roundTrip(again, 4));
        }
    }

    @Test
    void aCutRefusesEveryLaterConnection() throws IOException {
        proxy.cut();
        try (Socket socket = connect()) {
            assertEquals(-1, socket.getInputStream().read(), "closed as soon as accepted");
        }
        assertTrue(proxy.acceptedConnections() >= 1);
        proxy.refuse(false);
        try (Socket socket = connect()) {
            assertEquals(5, roundTrip(socket, 5));
        }
    }

    @Test
    void onlyLoopbackTargets() {
        assertThrows(IllegalArgumentException.class, () -> new FaultProxy("192.0.2.1", 2181));
    }
}
