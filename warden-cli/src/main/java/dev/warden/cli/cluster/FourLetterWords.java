package dev.warden.cli.cluster;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** Sends a four-letter word ({@code srvr}, {@code mntr}, {@code ruok}) and reads the whole reply. */
public final class FourLetterWords {
    private static final int MAX_REPLY_BYTES = 1 << 20;

    private FourLetterWords() {
    }

    /**
     * The reply, read until the server closes the connection.
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
            ByteArrayOutputStream reply = new ByteArrayOutputStream();
            byte[] buffer = new byte[4096];
            int read;
            while ((read = in.read(buffer)) >= 0) {
                reply.write(buffer, 0, read);
                if (reply.size() > MAX_REPLY_BYTES) {
                    throw new IOException(word + " reply from " + host + ":" + port + " exceeds " + MAX_REPLY_BYTES
                            + " bytes");
                }
            }
            return reply.toString(StandardCharsets.UTF_8);
        }
    }

    /** The member's mode; any I/O failure (refused, timed out, reset) is UNREACHABLE. */
    public static MemberMode mode(String host, int port, int timeoutMs) {
        try {
            return MemberMode.fromSrvr(send(host, port, "srvr", timeoutMs));
        } catch (IOException e) {
            return MemberMode.UNREACHABLE;
        }
    }
}
