package dev.warden.server.net;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * Asks a server one four-letter word ({@code srvr}, {@code mntr}, {@code ruok}, ...) over a plain
 * socket, as {@code echo mntr | nc} would, and reads the whole answer. The one client of the
 * four-letter words the command line, the benchmark and the tests share; the server's side is
 * {@link FourLetterWords}.
 */
public final class FourLetterWordClient {
    /** Connecting and each read in {@link #ask}. */
    private static final int ASK_TIMEOUT_MS = 5_000;
    /** A longer answer is no server's: a wrong port, say. */
    private static final int MAX_ANSWER_BYTES = 1 << 20;

    private FourLetterWordClient() {
    }

    /** The server's whole answer to {@code word}; {@code connectString} is one {@code host:port}. */
    public static String ask(String connectString, String word) throws IOException {
        int colon = connectString.lastIndexOf(':');
        return send(connectString.substring(0, colon), Integer.parseInt(connectString.substring(colon + 1)), word,
                ASK_TIMEOUT_MS);
    }

    /**
     * The answer, read until the server closes the connection.
     *
     * @param timeoutMs bounds connecting and each read; a paused member must not hang the caller
     */
    public static String send(String host, int port, String word, int timeoutMs) throws IOException {
        if (word.length() != 4) {
            throw new IllegalArgumentException("a four-letter word has four letters: '" + word + "'");
        }
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), timeoutMs);
            socket.setSoTimeout(timeoutMs);
            socket.getOutputStream().write(word.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            byte[] buffer = new byte[4096];
            int read;
            while ((read = in.read(buffer)) >= 0) {
                answer.write(buffer, 0, read);
                if (answer.size() > MAX_ANSWER_BYTES) {
                    throw new IOException(word + " answer from " + host + ":" + port + " exceeds " + MAX_ANSWER_BYTES
                            + " bytes");
                }
            }
            return answer.toString(StandardCharsets.UTF_8);
        }
    }
}
