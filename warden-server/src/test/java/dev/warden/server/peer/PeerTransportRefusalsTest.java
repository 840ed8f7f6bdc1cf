package dev.warden.server.peer;

import static dev.warden.server.peer.PeerTransportTest.WAIT_MS;
import static dev.warden.server.peer.PeerTransportTest.awaitDelivery;
import static dev.warden.server.peer.PeerTransportTest.ensemble;
import static dev.warden.server.peer.PeerTransportTest.fast;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.consensus.Role;
import dev.warden.consensus.ZabMessage;
import dev.warden.server.config.QuorumMember;
import dev.warden.server.peer.PeerTransportTest.Event;
import dev.warden.server.peer.PeerTransportTest.Recorder;
import dev.warden.server.quorum.DirectMemoryWatch;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What the peer and election ports refuse: strangers, bad or slow hellos, oversized and malformed
 * frames, bytes a dialled member sends back; and a send queue that overflows closing its link.
 */
class PeerTransportRefusalsTest {
    private final TransportsUnderTest open = new TransportsUnderTest();

    @AfterEach
    void closeAll() throws Exception {
        open.close();
    }

    private PeerTransport start(long id, Map<Long, QuorumMember> members, PeerHandler handler,
                                PeerOptions options) throws InterruptedException {
        return open.start(id, members, handler, options);
    }

    @Test
    void badHelloAndUnknownSendersAreRejected() throws Exception {
        Map<Long, QuorumMember> members = ensemble(2);
        Recorder r1 = new Recorder();
        start(1, members, r1, fast());
        for (int port : List.of(members.get(1L).peerPort(), members.get(1L).electionPort())) {
            assertClosedAfter(port, out -> {
                out.writeInt(PeerWire.HELLO_BYTES);
                out.writeInt(0x12345678);
                out.writeInt(PeerWire.VERSION);
                out.writeLong(2);
                out.writeInt(0);
            });
            assertClosedAfter(port, out -> hello(out, 99));
            assertClosedAfter(port, out -> hello(out, -1));
            assertClosedAfter(port, out -> hello(out, 1)); // itself
            assertClosedAfter(port, out -> { // a real member, but of peer protocol version 3 (a 16-byte hello)
                out.writeInt(16);
                out.writeInt(PeerWire.MAGIC);
                out.writeInt(3);
                out.writeLong(2);
            });
            assertClosedAfter(port, out -> { // a hello of this version with flags it does not know
                out.writeInt(PeerWire.HELLO_BYTES);
                out.writeInt(PeerWire.MAGIC);
                out.writeInt(PeerWire.VERSION);
                out.writeLong(2);
                out.writeInt(0x80);
            });
            assertClosedAfter(port, out -> out.write("GET / HTTP/1.1\r\n\r\n".getBytes()));
            // A first frame of any length but a hello's, even one holding a valid hello, is refused
            // from its length field: nothing else is read.
            for (int length : new int[] {0, 16, 19, 21, 24, 1 << 20, -1, Integer.MIN_VALUE}) {
                assertClosedAfter(port, out -> {
                    out.writeInt(length);
                    out.writeInt(PeerWire.MAGIC);
                    out.writeInt(PeerWire.VERSION);
                    out.writeLong(2);
                    out.writeInt(0);
                    out.writeInt(0);
                });
            }
            assertClosedAfter(port, out -> out.writeInt(21)); // the length field alone is enough
        }
        assertTrue(r1.events.isEmpty(), "no events from rejected connections: " + r1.events);
    }

    /**
     * The 128 MiB first frame that ran a member out of direct memory: refused from its length
     * field, on both ports, although a member may send frames that large once its hello is in.
     * The sender is cut off long before it has sent the frame, and the port's buffers stay small.
     */
    @Test
    void aHugeFirstFrameIsRefusedBeforeItsBytesAreBuffered() throws Exception {
        Map<Long, QuorumMember> members = ensemble(2);
        Recorder r1 = new Recorder();
        Recorder r2 = new Recorder();
        PeerOptions largeFrames = new PeerOptions(1 << 30, 10_000, 64L << 20, 20, 200, 60_000);
        start(1, members, r1, largeFrames);
        PeerTransport t2 = start(2, members, r2, largeFrames);
        awaitDelivery(t2, 1, r1); // both ports of member 1 have served a connection: their buffers exist
        for (int port : List.of(members.get(1L).peerPort(), members.get(1L).electionPort())) {
            for (int announcedBytes : new int[] {128 << 20, 1 << 30}) {
                try (DirectMemoryWatch memory = DirectMemoryWatch.start()) {
                    Flood flood = Flood.start(port, announcedBytes, 128L << 20);
                    long closedAfterMs = flood.awaitClosedMs();
                    long sentBytes = flood.awaitEnd();
                    System.out.println("a first frame announcing " + announcedBytes + " bytes: closed after "
                            + closedAfterMs + " ms, " + sentBytes + " bytes sent, direct memory grew by "
                            + memory.maxGrowthBytes() + " bytes (from " + memory.baselineBytes() + ")");
                    assertTrue(closedAfterMs < 5_000, "closed after " + closedAfterMs + " ms");
                    assertTrue(flood.cutOff(), "the sender was cut off; it sent " + sentBytes + " bytes");
                    assertTrue(sentBytes < 32 << 20, "the port took " + sentBytes + " bytes of the frame before "
                            + "closing; it should stop at the length field (the rest is socket buffers)");
                    assertTrue(memory.maxGrowthBytes() < 16 << 20, "Netty's direct memory grew by "
                            + memory.maxGrowthBytes() + " bytes while " + sentBytes + " were sent");
                }
            }
        }
        // Member 1 still takes its peer's messages, and no member was reported lost.
        t2.send(1, new ZabMessage.Commit(7));
        t2.send(1, new ZabMessage.Vote(2, 7, 1, 4, Role.LOOKING));
        assertEquals(new Event(2, new ZabMessage.Commit(7)), r1.nextMessage());
        assertEquals(new Event(2, new ZabMessage.Vote(2, 7, 1, 4, Role.LOOKING)), r1.nextMessage());
        assertTrue(r1.events.stream().noneMatch(e -> e.message() == null), "disconnects reported: " + r1.events);
    }

    /**
     * A connection that has not delivered its hello within the timeout is closed, whether it went
     * silent part way or trickles the hello a byte at a time (each byte resetting no timer).
     */
    @Test
    void aHelloNotCompletedWithinTheTimeoutIsClosed() throws Exception {
        Map<Long, QuorumMember> members = ensemble(2);
        Recorder r1 = new Recorder();
        long helloTimeoutMs = 400;
        start(1, members, r1, new PeerOptions(1 << 20, 10_000, 64L << 20, 20, 200, helloTimeoutMs));
        for (int port : List.of(members.get(1L).peerPort(), members.get(1L).electionPort())) {
            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
                socket.setSoTimeout((int) WAIT_MS);
                long startNs = System.nanoTime();
                DataOutputStream out = new DataOutputStream(socket.getOutputStream());
                out.writeInt(PeerWire.HELLO_BYTES);
                out.writeInt(PeerWire.MAGIC);
                out.flush();
                assertEquals(-1, socket.getInputStream().read(), "the member closes the silent connection");
                long closedAfterMs = (System.nanoTime() - startNs) / 1_000_000;
                assertTrue(closedAfterMs >= helloTimeoutMs - 50 && closedAfterMs < 5_000,
                        "closed after " + closedAfterMs + " ms, the timeout is " + helloTimeoutMs + " ms");
            }
            // A valid hello from member 2, one byte every 100 ms: it would take 2 s to finish.
            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
                socket.setSoTimeout((int) WAIT_MS);
                java.io.ByteArrayOutputStream helloBytes = new java.io.ByteArrayOutputStream();
                hello(new DataOutputStream(helloBytes), 2);
                byte[] bytes = helloBytes.toByteArray();
                java.util.concurrent.atomic.AtomicInteger trickled = new java.util.concurrent.atomic.AtomicInteger();
                Thread trickle = new Thread(() -> {
                    try {
                        for (byte b : bytes) {
                            socket.getOutputStream().write(b);
                            socket.getOutputStream().flush();
                            trickled.incrementAndGet();
                            Thread.sleep(100);
                        }
                    } catch (IOException | InterruptedException closed) {
                        // the member hung up: the expected end
                    }
                }, "trickle");
                trickle.start();
                assertEquals(-1, socket.getInputStream().read(), "the member closes the trickling connection");
                assertTrue(trickled.get() < bytes.length, "closed only after the whole hello: " + trickled.get());
                trickle.interrupt();
                trickle.join();
            }
        }
        assertTrue(r1.events.isEmpty(), "no events from connections without a hello: " + r1.events);
    }

    /** Once the hello is accepted the limit is the transport's, not the hello's: large frames pass. */
    @Test
    void aValidHelloIsFollowedByFramesUpToTheFrameLimit() throws Exception {
        Map<Long, QuorumMember> members = ensemble(2);
        Recorder r1 = new Recorder();
        start(1, members, r1, new PeerOptions(8 << 20, 10_000, 64L << 20, 20, 200, 60_000));
        byte[] payload = new byte[6 << 20];
        new java.util.Random(1).nextBytes(payload);
        byte[] large = dev.warden.consensus.ZabCodec.encode(new ZabMessage.AppData(payload));
        byte[] small = dev.warden.consensus.ZabCodec.encode(new ZabMessage.Commit(99));
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), members.get(1L).peerPort())) {
            DataOutputStream out = new DataOutputStream(new java.io.BufferedOutputStream(socket.getOutputStream()));
            hello(out, 2);
            out.writeInt(large.length);
            out.write(large);
            out.writeInt(small.length);
            out.write(small);
            out.flush();
            Event first = r1.nextMessage();
            assertEquals(2, first.peer());
            assertArrayEquals(payload, ((ZabMessage.AppData) first.message()).payload());
            assertEquals(new Event(2, new ZabMessage.Commit(99)), r1.nextMessage());
        }
    }

    /**
     * Members only send on the connections they dial. Whatever the other end sends back is
     * released as it arrives: 64 MiB of it leave Netty's buffers as they were, and the link
     * keeps carrying messages.
     */
    @Test
    void bytesSentBackOnADialedConnectionAreDiscardedNotBuffered() throws Exception {
        Map<Long, QuorumMember> members = ensemble(2);
        try (ServerSocket fakePeer = new ServerSocket(members.get(2L).peerPort(), 50,
                InetAddress.getLoopbackAddress())) {
            Recorder r1 = new Recorder();
            PeerTransport t1 = start(1, members, r1, fast());
            Socket accepted = fakePeer.accept();
            open.add(accepted);
            accepted.setSoTimeout((int) WAIT_MS);
            DataInputStream in = new DataInputStream(accepted.getInputStream());
            assertEquals(PeerWire.HELLO_BYTES, in.readInt());
            in.skipNBytes(PeerWire.HELLO_BYTES);
            long junkBytes = 64L << 20;
            try (DirectMemoryWatch memory = DirectMemoryWatch.start()) {
                byte[] junk = new byte[64 << 10];
                java.util.Arrays.fill(junk, (byte) 0x7f);
                java.io.OutputStream back = accepted.getOutputStream();
                for (long sent = 0; sent < junkBytes; sent += junk.length) {
                    back.write(junk); // blocks if member 1 stopped reading
                }
                back.flush();
                for (int i = 0; i < 100; i++) {
                    t1.send(2, new ZabMessage.Ack(i));
                }
                for (int i = 0; i < 100; i++) {
                    int length = in.readInt();
                    byte[] body = new byte[length];
                    in.readFully(body);
                    assertEquals(new ZabMessage.Ack(i), dev.warden.consensus.ZabCodec.decode(body));
                }
                assertTrue(memory.maxGrowthBytes() < 16 << 20, "Netty's direct memory grew by "
                        + memory.maxGrowthBytes() + " bytes while " + junkBytes + " came back");
            }
            assertTrue(r1.events.stream().noneMatch(e -> e.message() == null),
                    "the link to member 2 stayed up: " + r1.events);
        }
    }

    @Test
    void oversizedOrMalformedFramesCloseTheConnection() throws Exception {
        Map<Long, QuorumMember> members = ensemble(2);
        Recorder r1 = new Recorder();
        start(1, members, r1, fast());
        int port = members.get(1L).peerPort();
        assertClosedAfter(port, out -> {
            hello(out, 2);
            out.writeInt(1 << 30); // announces 1 GiB against a 1 MiB limit; nothing more is sent
        });
        assertTrue(r1.awaitDisconnect(2));
        assertClosedAfter(port, out -> {
            hello(out, 2);
            out.writeInt(3);
            out.write(new byte[] {99, 1, 2}); // unknown message type
        });
        assertTrue(r1.awaitDisconnect(2));
    }

    @Test
    void aFullQueueClosesTheConnectionAndReportsTheDisconnect() throws Exception {
        Map<Long, QuorumMember> members = ensemble(2);
        // Member 2 is a socket that accepts but never reads, so member 1's queue must fill.
        try (ServerSocket stalled = new ServerSocket(members.get(2L).peerPort(), 50,
                InetAddress.getLoopbackAddress())) {
            Recorder r1 = new Recorder();
            PeerTransport t1 = start(1, members, r1, new PeerOptions(1 << 20, 8, 1 << 20, 20, 200, 60_000));
            Socket accepted = stalled.accept();
            open.add(accepted);
            // The hello is written once the link has its channel: flooding before that would
            // overflow a queue with no connection to close, and this connection would stay open.
            accepted.setSoTimeout((int) WAIT_MS);
            DataInputStream in = new DataInputStream(accepted.getInputStream());
            assertEquals(PeerWire.HELLO_BYTES, in.readInt());
            assertEquals(PeerWire.MAGIC, in.readInt());
            byte[] chunk = new byte[512 * 1024];
            boolean reported = false;
            for (int i = 0; i < 400 && !reported; i++) {
                t1.send(2, new ZabMessage.AppData(chunk));
                Event e = r1.events.poll();
                reported = e != null && e.message() == null && e.peer() == 2;
            }
            assertTrue(reported || r1.awaitDisconnect(2), "overflow reported as a disconnect");
            // Reading on must end at the close the overflow caused.
            byte[] sink = new byte[64 * 1024];
            while (in.read(sink) >= 0) {
                // drain
            }
        }
    }

    /**
     * A stranger's frame: a length field announcing {@code announcedBytes}, then up to
     * {@code totalBytes} of zeros written as fast as the socket takes them, on a thread of its own
     * so this side can watch for the close meanwhile.
     */
    private static final class Flood {
        private final Socket socket;
        private final Thread writer;
        private final long startNs = System.nanoTime();
        private final java.util.concurrent.atomic.AtomicLong sentBytes = new java.util.concurrent.atomic.AtomicLong();
        private volatile boolean cutOff;

        private Flood(int port, int announcedBytes, long totalBytes) throws IOException {
            socket = new Socket(InetAddress.getLoopbackAddress(), port);
            socket.setSoTimeout((int) WAIT_MS);
            writer = new Thread(() -> {
                try {
                    DataOutputStream out = new DataOutputStream(socket.getOutputStream());
                    out.writeInt(announcedBytes);
                    byte[] chunk = new byte[64 << 10];
                    while (sentBytes.get() < totalBytes) {
                        out.write(chunk);
                        sentBytes.addAndGet(chunk.length);
                    }
                } catch (IOException closedByTheMember) {
                    cutOff = true;
                }
            }, "flood");
            writer.start();
        }

        static Flood start(int port, int announcedBytes, long totalBytes) throws IOException {
            return new Flood(port, announcedBytes, totalBytes);
        }

        /** Milliseconds from the start until the member closed the connection (EOF or reset). */
        long awaitClosedMs() throws IOException {
            try {
                assertEquals(-1, socket.getInputStream().read(), "the member sends nothing");
            } catch (java.net.SocketTimeoutException notClosed) {
                throw new AssertionError("the member did not close the connection within " + WAIT_MS + " ms");
            } catch (java.net.SocketException reset) {
                // closed with the flood unread: a reset instead of an EOF
            }
            return (System.nanoTime() - startNs) / 1_000_000;
        }

        /** Bytes of the frame body written before the writer stopped; closes the socket. */
        long awaitEnd() throws Exception {
            writer.join(WAIT_MS);
            socket.close();
            writer.join();
            return sentBytes.get();
        }

        boolean cutOff() {
            return cutOff;
        }
    }

    private interface Writer {
        void write(DataOutputStream out) throws IOException;
    }

    private static void hello(DataOutputStream out, long id) throws IOException {
        out.writeInt(PeerWire.HELLO_BYTES);
        out.writeInt(PeerWire.MAGIC);
        out.writeInt(PeerWire.VERSION);
        out.writeLong(id);
        out.writeInt(0);
    }

    /**
     * Writes what {@code writer} produces in one piece and expects the member to close the
     * connection: an EOF, or a reset when it closed with bytes unread.
     */
    private static void assertClosedAfter(int port, Writer writer) throws IOException {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        writer.write(new DataOutputStream(bytes));
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout((int) WAIT_MS);
            socket.getOutputStream().write(bytes.toByteArray());
            try {
                assertEquals(-1, socket.getInputStream().read(), "the server closes the connection");
            } catch (java.net.SocketTimeoutException stillOpen) {
                throw new AssertionError("the connection is still open after " + WAIT_MS + " ms", stillOpen);
            } catch (java.net.SocketException reset) {
                // closed with some of the bytes unread
            }
        }
    }
}
