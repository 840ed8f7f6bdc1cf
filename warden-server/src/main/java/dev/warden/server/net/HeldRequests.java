package dev.warden.server.net;

import dev.warden.protocol.ProtocolException;
import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * Requests a client sent right behind its ConnectRequest, before its new session exists.
 * ZooKeeper lets a client pipeline them: it stops reading the connection until the session is
 * made, then serves them in order. A connection here stops reading too, but the frames that came
 * in the same read as the handshake are decoded at once; they wait here, copied, and are served
 * in order as soon as the session exists. What one read can bring is bounded (the connection reads
 * no more), and so is what is held: past {@code limitBytes} the client is refused. Event loop only.
 */
final class HeldRequests {
    /** Serves one held request: its frame, and whether more of the client's requests follow it. */
    interface Server {
        void serve(byte[] frame, int length, boolean moreBehind);
    }

    private final ArrayDeque<byte[]> frames = new ArrayDeque<>();
    private final int limitBytes;
    private long heldBytes;

    HeldRequests(int limitBytes) {
        this.limitBytes = limitBytes;
    }

    /** Keeps a copy of the frame (the caller's array is reused for the next one). */
    void hold(byte[] frame, int length) {
        heldBytes += length;
        if (heldBytes > limitBytes) {
            throw new ProtocolException("more than " + limitBytes + " bytes of requests sent before the session was"
                    + " established (twice jute.maxbuffer)");
        }
        frames.add(Arrays.copyOf(frame, length));
    }

    /** Serves every held request, oldest first, and forgets them. */
    void serveAll(Server server) {
        while (!frames.isEmpty()) {
            byte[] frame = frames.poll();
            server.serve(frame, frame.length, !frames.isEmpty());
        }
        heldBytes = 0;
    }
}
