package dev.warden.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Asks a server what it is (standalone, leader, follower, observer) with the {@code srvr}
 * four-letter word, which every Warden and ZooKeeper server answers. Going through the client
 * port keeps this module on the server's public face rather than its internals.
 */
final class ServerRole {
    private static final int TIMEOUT_MS = 2_000;

    private ServerRole() {
    }

    /** The "Mode:" line's value, or empty if the server did not answer or is not serving. */
    static Optional<String> of(String host, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), TIMEOUT_MS);
            socket.setSoTimeout(TIMEOUT_MS);
            OutputStream out = socket.getOutputStream();
            out.write("srvr".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return modeLine(readAll(socket.getInputStream()));
        } catch (IOException notAnswering) {
            return Optional.empty();
        }
    }

    static Optional<String> modeLine(String reply) {
        for (String line : reply.split("\n")) {
            if (line.startsWith("Mode:")) {
                return Optional.of(line.substring("Mode:".length()).trim());
            }
        }
        return Optional.empty();
    }

    private static String readAll(InputStream in) throws IOException {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        byte[] chunk = new byte[1024];
        int read;
        while ((read = in.read(chunk)) >= 0) {
            buffer.write(chunk, 0, read);
        }
        return buffer.toString(StandardCharsets.US_ASCII);
    }
}
