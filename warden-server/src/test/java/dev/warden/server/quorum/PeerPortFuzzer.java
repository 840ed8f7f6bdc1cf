package dev.warden.server.quorum;

import dev.warden.server.peer.PeerWire;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One thread of strangers at a member's peer and election ports: opens a connection to one of
 * them, plays one scenario on it, and checks how the member answered: every refused input must
 * close the connection at once (well before the hello timeout, so not because of it), and a
 * hello left unfinished must be closed by the timeout. A flood behind a huge length field must
 * be cut off long before it is all sent. Any breach is this fuzzer's failure.
 */
final class PeerPortFuzzer implements Runnable {
    /** What one connection does; the weights are out of {@link #TOTAL_WEIGHT}. */
    enum Scenario {
        RANDOM_BYTES(180),
        RANDOM_LENGTH(150),
        HUGE_LENGTH(120),
        FLOOD(8),
        BAD_MAGIC(130),
        BAD_VERSION(100),
        NON_MEMBER(135),
        TRUNCATED_HELLO(175),
        /** A valid hello naming a real member, then frames that cannot decode or never complete. */
        IMPERSONATION(2);

        final int weight;

        Scenario(int weight) {
            this.weight = weight;
        }
    }

    static final int TOTAL_WEIGHT = 1000;
    private static final int CONNECT_TIMEOUT_MS = 5_000;
    private static final long FLOOD_BYTES = 64L << 20;
    private static final int FLOOD_CHUNK_BYTES = 64 << 10;
    /** Truncated hellos left open for the timeout to close, per thread; the rest are closed here. */
    private static final int MAX_LINGERING = 8;

    private record Lingering(Socket socket, long openedNs) {
    }

    private final List<InetSocketAddress> ports;
    private final Random random;
    private final PeerInputFactory inputs;
    private final long helloTimeoutMs;
    private final long promptCloseMs;
    private final AtomicLong connectionBudget;
    private final AtomicBoolean stop;
    private final Map<Scenario, AtomicLong> played;
    private final AtomicLong maxFloodBytesTaken;
    private final List<Lingering> lingering = new ArrayList<>();
    private volatile Throwable failure;

    /**
     * @param promptCloseMs      how soon a refused connection must be closed; below the hello timeout
     * @param connectionBudget   connections still to open, shared by the threads
     */
    PeerPortFuzzer(List<InetSocketAddress> ports, long seed, long targetId, List<Long> memberIds, long helloTimeoutMs,
                   long promptCloseMs, AtomicLong connectionBudget, AtomicBoolean stop, Map<Scenario, AtomicLong> played,
                   AtomicLong maxFloodBytesTaken) {
        this.ports = ports;
        this.random = new Random(seed);
        this.inputs = new PeerInputFactory(random, targetId, memberIds);
        this.helloTimeoutMs = helloTimeoutMs;
        this.promptCloseMs = promptCloseMs;
        this.connectionBudget = connectionBudget;
        this.stop = stop;
        this.played = played;
        this.maxFloodBytesTaken = maxFloodBytesTaken;
    }

    @Override
    public void run() {
        try {
            while (!stop.get() && connectionBudget.getAndDecrement() > 0) {
                Scenario scenario = pick();
                played.get(scenario).incrementAndGet();
                InetSocketAddress port = ports.get(random.nextInt(ports.size()));
                Socket socket = new Socket();
                boolean keep = false;
                try {
                    socket.connect(port, CONNECT_TIMEOUT_MS);
                    socket.setTcpNoDelay(true);
                    if (random.nextInt(4) == 0) {
                        socket.setSoLinger(true, 0); // close() then resets instead of a FIN
                    }
                    keep = play(scenario, socket, port);
                } finally {
                    if (!keep) {
                        socket.close();
                    }
                }
            }
            awaitLingeringClosed();
        } catch (Throwable t) {
            failure = t;
        } finally {
            for (Lingering l : lingering) {
                try {
                    l.socket().close();
                } catch (IOException ignored) {
                    // closing a test socket
                }
            }
        }
    }

    Throwable failure() {
        return failure;
    }

    private Scenario pick() {
        int roll = random.nextInt(TOTAL_WEIGHT);
        for (Scenario s : Scenario.values()) {
            roll -= s.weight;
            if (roll < 0) {
                return s;
            }
        }
        throw new IllegalStateException("scenario weights add up to less than " + TOTAL_WEIGHT);
    }

    /** Plays {@code scenario}; returns whether the socket is kept open for the hello timeout. */
    private boolean play(Scenario scenario, Socket socket, InetSocketAddress port) throws IOException {
        OutputStream out = socket.getOutputStream();
        switch (scenario) {
            case RANDOM_BYTES -> {
                int blobs = 1 + random.nextInt(3);
                byte[][] noise = new byte[blobs][];
                int total = 0;
                for (int i = 0; i < blobs; i++) {
                    noise[i] = inputs.randomBlob();
                    total += noise[i].length;
                }
                // fewer bytes than a length field are a truncated frame: left for the timeout
                if (writeAll(out, noise) && total >= PeerWire.LENGTH_BYTES) {
                    expectPromptClose(socket, scenario, port);
                }
            }
            case RANDOM_LENGTH -> {
                if (writeAll(out, inputs.lengthThenBytes(inputs.wrongHelloLength(), random.nextInt(2048)))) {
                    expectPromptClose(socket, scenario, port);
                }
            }
            case HUGE_LENGTH -> {
                if (writeAll(out, inputs.lengthThenBytes(inputs.hugeLength(), random.nextInt(65)))) {
                    expectPromptClose(socket, scenario, port);
                }
            }
            case FLOOD -> flood(socket, out, port);
            case BAD_MAGIC -> {
                if (writeAll(out, inputs.helloWithBadMagic(), maybeTrailing())) {
                    expectPromptClose(socket, scenario, port);
                }
            }
            case BAD_VERSION -> {
                if (writeAll(out, inputs.helloWithBadVersion(), maybeTrailing())) {
                    expectPromptClose(socket, scenario, port);
                }
            }
            case NON_MEMBER -> {
                if (writeAll(out, inputs.helloFromNonMember(), maybeTrailing())) {
                    expectPromptClose(socket, scenario, port);
                }
            }
            case TRUNCATED_HELLO -> {
                writeAll(out, inputs.truncatedHello(random.nextInt(PeerWire.LENGTH_BYTES + PeerWire.HELLO_BYTES)));
                if (lingering.size() < MAX_LINGERING && random.nextInt(50) == 0) {
                    lingering.add(new Lingering(socket, System.nanoTime()));
                    return true;
                }
            }
            case IMPERSONATION -> impersonate(socket, out, port);
            default -> throw new IllegalStateException("unplayed scenario " + scenario);
        }
        return false;
    }

    /** Sometimes more bytes after a refused hello: they must not be read either. */
    private byte[] maybeTrailing() {
        return random.nextBoolean() ? new byte[0] : inputs.randomBlob();
    }

    /**
     * A valid hello naming a real member, which replaces that member's own connection, then
     * frames the member must refuse (or that never complete: then this side hangs up).
     */
    private void impersonate(Socket socket, OutputStream out, InetSocketAddress port) throws IOException {
        byte[] hello = inputs.validHello(inputs.anotherMember());
        switch (random.nextInt(4)) {
            case 0 -> {
                if (writeAll(out, hello, inputs.unknownTypeFrame())) {
                    expectPromptClose(socket, Scenario.IMPERSONATION, port);
                }
            }
            case 1 -> {
                if (writeAll(out, hello, inputs.truncatedMessageFrame())) {
                    expectPromptClose(socket, Scenario.IMPERSONATION, port);
                }
            }
            case 2 -> {
                // a length beyond the frame limit: refused from the length field, even after a hello
                if (writeAll(out, hello, inputs.lengthThenBytes(Integer.MAX_VALUE - random.nextInt(1000), 64))) {
                    expectPromptClose(socket, Scenario.IMPERSONATION, port);
                }
            }
            default -> // a frame that never completes: the member waits for it until this side hangs up
                    writeAll(out, hello, inputs.lengthThenBytes(1 + random.nextInt(1 << 20), random.nextInt(4096)));
        }
    }

    /**
     * A huge length field, then zeros as fast as the socket takes them: the member must close
     * the connection at the length field, so the writes fail once the socket buffers between the
     * two are full, long before the whole flood is sent.
     */
    private void flood(Socket socket, OutputStream out, InetSocketAddress port) throws IOException {
        byte[] length = java.nio.ByteBuffer.allocate(4).putInt(inputs.hugeLength()).array();
        byte[] chunk = new byte[FLOOD_CHUNK_BYTES];
        long sent = 0;
        try {
            out.write(length);
            while (sent < FLOOD_BYTES) {
                out.write(chunk);
                sent += chunk.length;
            }
        } catch (IOException closedByTheMember) {
            maxFloodBytesTaken.accumulateAndGet(sent, Math::max);
            expectPromptClose(socket, Scenario.FLOOD, port);
            return;
        }
        throw new AssertionError("the member at " + port + " took a " + FLOOD_BYTES
                + "-byte flood behind a huge length field without closing the connection");
    }

    /** Writes the pieces in one go; false if the member had already closed the connection. */
    private static boolean writeAll(OutputStream out, byte[]... pieces) {
        int total = 0;
        for (byte[] piece : pieces) {
            total += piece.length;
        }
        java.nio.ByteBuffer all = java.nio.ByteBuffer.allocate(total);
        for (byte[] piece : pieces) {
            all.put(piece);
        }
        try {
            out.write(all.array());
            return true;
        } catch (IOException closed) {
            return false; // closed at an earlier piece of this input: as prompt as it gets
        }
    }

    /** The member must close the connection within {@link #promptCloseMs}, sending nothing. */
    private void expectPromptClose(Socket socket, Scenario scenario, InetSocketAddress port) throws IOException {
        socket.setSoTimeout((int) promptCloseMs);
        long startNs = System.nanoTime();
        try {
            int read = socket.getInputStream().read();
            if (read != -1) {
                throw new AssertionError("the member at " + port + " sent a byte on an accepted connection ("
                        + scenario + ")");
            }
        } catch (SocketTimeoutException open) {
            throw new AssertionError("the member at " + port + " kept a " + scenario + " connection open for "
                    + (System.nanoTime() - startNs) / 1_000_000 + " ms; refused input must close it at once");
        } catch (SocketException reset) {
            // closed with bytes unread: a reset instead of an EOF
        }
    }

    /** Every truncated hello left open must have been closed by the member's hello timeout. */
    private void awaitLingeringClosed() throws IOException {
        for (Lingering l : lingering) {
            long deadlineNs = l.openedNs() + (helloTimeoutMs + promptCloseMs) * 1_000_000;
            long remainingMs = Math.max(1, (deadlineNs - System.nanoTime()) / 1_000_000);
            l.socket().setSoTimeout((int) remainingMs);
            InputStream in = l.socket().getInputStream();
            try {
                if (in.read() != -1) {
                    throw new AssertionError("the member sent a byte on an accepted connection");
                }
            } catch (SocketTimeoutException open) {
                throw new AssertionError("a connection with a truncated hello was still open "
                        + (System.nanoTime() - l.openedNs()) / 1_000_000 + " ms after it opened; the hello timeout is "
                        + helloTimeoutMs + " ms");
            } catch (SocketException reset) {
                // closed
            }
        }
    }
}
