package dev.warden.server;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** Asks a server one four-letter word over a plain socket, as {@code echo mntr | nc} would. */
public final class FourLetterWordClient {
    private static final int TIMEOUT_MS = 5_000;

    private FourLetterWordClient() {
    }

    /** The server's whole answer to {@code word}; {@code connectString} is one {@code host:port}. */
    public static String ask(String connectString, String word) throws IOException {
        int colon = connectString.lastIndexOf(':');
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(connectString.substring(0, colon),
                    Integer.parseInt(connectString.substring(colon + 1))), TIMEOUT_MS);
            socket.setSoTimeout(TIMEOUT_MS);
            OutputStream out = socket.getOutputStream();
            out.write(word.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
