package dev.warden.server;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Predicate;

/**
 * Copies what the JVM writes to stderr (where slf4j-simple logs) while it is open, still passing
 * it on, so a test can check what a server logged: a refusal with the address, no password.
 */
public final class LogCapture implements AutoCloseable {
    private final PrintStream original = System.err;
    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();

    private LogCapture() {
        OutputStream tee = new OutputStream() {
            @Override
            public void write(int b) {
                synchronized (captured) {
                    captured.write(b);
                }
                original.write(b);
            }

            @Override
            public void write(byte[] bytes, int offset, int length) {
                synchronized (captured) {
                    captured.write(bytes, offset, length);
                }
                original.write(bytes, offset, length);
            }
        };
        System.setErr(new PrintStream(tee, true, StandardCharsets.UTF_8));
    }

    public static LogCapture start() {
        return new LogCapture();
    }

    /** Everything logged so far. */
    public String text() {
        synchronized (captured) {
            return captured.toString(StandardCharsets.UTF_8);
        }
    }

    /** Waits up to {@code timeoutMs} for a logged line matching {@code line}; returns it. */
    public String awaitLine(Predicate<String> line, long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMs * 1_000_000;
        while (true) {
            for (String logged : text().split("\n")) {
                if (line.test(logged)) {
                    return logged;
                }
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no matching line logged within " + timeoutMs + " ms; logged:\n" + text());
            }
            Thread.sleep(20);
        }
    }

    @Override
    public void close() {
        System.setErr(original);
    }
}
