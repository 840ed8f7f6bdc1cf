package dev.warden.bench.compare;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** Asks a server a four-letter word on its client port and returns the whole answer. */
final class FourLetterWord {
    private FourLetterWord() {
    }

    static String ask(String host, int port, String word, int timeoutMs) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), timeoutMs);
            socket.setSoTimeout(timeoutMs);
            socket.getOutputStream().write(word.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            in.transferTo(answer);
            return answer.toString(StandardCharsets.UTF_8);
        }
    }

    /** The value of the "Mode:" line of a srvr answer, or null when there is none (not serving). */
    static String mode(String srvrAnswer) {
        for (String line : srvrAnswer.split("\n")) {
            if (line.startsWith("Mode:")) {
                return line.substring("Mode:".length()).trim();
            }
        }
        return null;
    }
}
