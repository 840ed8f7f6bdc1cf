package dev.warden.server.fuzz;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One thread of hostile clients: opens a connection, plays one scenario of bad frames on it,
 * closes it (politely or with a reset), and again, until the shared frame budget is spent.
 * Write errors are expected (the server hangs up on a broken stream) and end the connection.
 */
final class FrameFuzzer implements Runnable {
    private static final int CONNECT_TIMEOUT_MS = 5_000;
    private static final int READ_TIMEOUT_MS = 5_000;
    private static final int SESSION_TIMEOUT_MS = 4_000;
    private static final int MAX_GARBAGE_FRAMES_PER_CONNECTION = 200;

    private final InetSocketAddress address;
    private final FrameFactory frames;
    private final Random random;
    private final AtomicLong framesSent;
    private final AtomicLong connectionsOpened;
    private final long frameBudget;
    private final AtomicBoolean stop;
    private volatile Throwable failure;

    FrameFuzzer(InetSocketAddress address, long seed, int maxFrameBytes, AtomicLong framesSent,
                AtomicLong connectionsOpened, long frameBudget, AtomicBoolean stop) {
        this.address = address;
        this.random = new Random(seed);
        this.frames = new FrameFactory(random, maxFrameBytes);
        this.framesSent = framesSent;
        this.connectionsOpened = connectionsOpened;
        this.frameBudget = frameBudget;
        this.stop = stop;
    }

    @Override
    public void run() {
        try {
            while (!stop.get() && framesSent.get() < frameBudget) {
                try (Socket socket = new Socket()) {
                    socket.connect(address, CONNECT_TIMEOUT_MS);
                    connectionsOpened.incrementAndGet();
                    socket.setSoTimeout(READ_TIMEOUT_MS);
                    socket.setTcpNoDelay(true);
                    if (random.nextInt(4) == 0) {
                        socket.setSoLinger(true, 0); // close() then resets instead of a FIN
                    }
                    playScenario(socket);
                } catch (IOException hungUp) {
                    // the server closed the connection on a bad frame: the normal outcome
                }
            }
        } catch (Throwable t) {
            failure = t;
        }
    }

    Throwable failure() {
        return failure;
    }

    private void playScenario(Socket socket) throws IOException {
        OutputStream out = socket.getOutputStream();
        switch (random.nextInt(10)) {
            case 0 -> {
                // raw noise from the first byte
                int blobs = 1 + random.nextInt(10);
                for (int i = 0; i < blobs; i++) {
                    send(out, frames.randomBytes(1 + random.nextInt(4096)));
                }
            }
            case 1 -> send(out, FrameFactory.frame(frames.mutate(frames.connectRequest(SESSION_TIMEOUT_MS))));
            case 2 -> send(out, frames.frameWithWrongLength(frames.connectRequest(SESSION_TIMEOUT_MS)));
            case 3 -> send(out, frames.oversizedFrameStart());
            case 4 -> send(out, FrameFactory.frame(frames.randomBody()));
            default -> garbageAfterHandshake(socket, out);
        }
    }

    /** A real session, then a burst of damaged and unknown requests, maybe ended by a lying length. */
    private void garbageAfterHandshake(Socket socket, OutputStream out) throws IOException {
        send(out, FrameFactory.frame(frames.connectRequest(SESSION_TIMEOUT_MS)));
        DataInputStream in = new DataInputStream(socket.getInputStream());
        try {
            int length = in.readInt();
            in.skipNBytes(length);
        } catch (SocketTimeoutException slow) {
            throw new AssertionError("no handshake reply within " + READ_TIMEOUT_MS + " ms", slow);
        }
        int count = 1 + random.nextInt(MAX_GARBAGE_FRAMES_PER_CONNECTION);
        for (int i = 0; i < count; i++) {
            int xid = random.nextInt(8) == 0 ? random.nextInt() : i + 1;
            // weighted toward frames the server answers without hanging up, so most of the
            // burst reaches the request decoder instead of dying behind the first fatal frame
            int pick = random.nextInt(20);
            byte[] frame;
            if (pick < 7) {
                frame = FrameFactory.frame(frames.validRequest(xid));
            } else if (pick < 13) {
                frame = FrameFactory.frame(frames.knownOpcodeGarbageBody(xid));
            } else if (pick < 17) {
                frame = FrameFactory.frame(frames.mutate(frames.validRequest(xid)));
            } else if (pick == 17) {
                frame = FrameFactory.frame(frames.randomBytes(random.nextInt(16)));
            } else if (pick == 18) {
                frame = FrameFactory.frame(frames.unknownOpcodeRequest(xid));
            } else {
                frame = frames.frameWithWrongLength(frames.validRequest(xid));
            }
            send(out, frame);
        }
        if (random.nextInt(10) == 0) {
            send(out, frames.oversizedFrameStart());
        }
    }

    private void send(OutputStream out, byte[] bytes) throws IOException {
        out.write(bytes);
        framesSent.incrementAndGet();
    }
}
