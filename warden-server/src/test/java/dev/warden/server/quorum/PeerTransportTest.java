package dev.warden.server.quorum;

import static org.junit.jupiter.api.Assertions.assertFalse;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.consensus.Entry;
import dev.warden.consensus.Outbound;
import dev.warden.consensus.Role;
import dev.warden.consensus.ZabMessage;
import dev.warden.server.FreePorts;
import dev.warden.server.config.QuorumMember;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PeerTransportTest {
    private static final long WAIT_MS = 10_000;

    /** What a transport delivered, in order; disconnects appear as a null message. */
    record Event(long peer, ZabMessage message) {
    }

    static final class Recorder implements PeerHandler {
        final BlockingQueue<Event> events = new LinkedBlockingQueue<>();

        @Override
        public void onMessage(long from, ZabMessage message) {
            events.add(new Event(from, message));
        }

        @Override
        public void onDisconnected(long peer) {
            events.add(new Event(peer, null));
        }

        Event nextMessage() throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
            while (System.nanoTime() < deadline) {
                Event e = events.poll(100, TimeUnit.MILLISECONDS);
                if (e != null && e.message() != null) {
                    return e;
                }
            }
            throw new AssertionError("no message within " + WAIT_MS + " ms");
        }

        boolean awaitDisconnect(long peer) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
            while (System.nanoTime() < deadline) {
                Event e = events.poll(100, TimeUnit.MILLISECONDS);
                if (e != null && e.message() == null && e.peer() == peer) {
                    return true;
                }
            }
            return false;
        }
    }

    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    static Map<Long, QuorumMember> ensemble(int size) throws IOException {
        Map<Long, QuorumMember> members = new LinkedHashMap<>();
        for (long id = 1; id <= size; id++) {
            members.put(id, new QuorumMember(id, "127.0.0.1", FreePorts.pick(), FreePorts.pick(), false, null, 0));
        }
        return members;
    }

    private PeerTransport start(long id, Map<Long, QuorumMember> members, PeerHandler handler,
                                PeerTransport.Options options) throws InterruptedException {
        PeerTransport t = new PeerTransport(id, members, handler, options);
        open.add(t);
        t.start();
        return t;
    }

    /**
     * Small frames and quick redials. The hello timeout is far above {@link #WAIT_MS}, so a
     * connection seen closed within it was closed for what it sent, not for being slow.
     */
    private static PeerTransport.Options fast() {
        return new PeerTransport.Options(1 << 20, 10_000, 64L << 20, 20, 200, 60_000);
    }

    @Test
    void threeMembersExchangeMessagesInOrder() throws Exception {
        Map<Long, QuorumMember> members = ensemble(3);
        Recorder[] recorders = {null, new Recorder(), new Recorder(), new Recorder()};
        PeerTransport[] t = new PeerTransport[4];
        for (int id = 1; id <= 3; id++) {
            t[id] = start(id, members, recorders[id], fast());
        }
        for (int from = 1; from <= 3; from++) {
            for (int to = 1; to <= 3; to++) {
                if (from != to) {
                    awaitDelivery(t[from], to, recorders[to]);
                }
            }
        }
        int count = 500;
        for (int i = 0; i < count; i++) {
            t[1].send(2, new ZabMessage.Ack(i));
            t[1].send(3, new ZabMessage.Commit(i));
            t[3].send(2, new ZabMessage.AppData(java.nio.ByteBuffer.allocate(4).putInt(i).array()));
        }
        t[2].send(1, new ZabMessage.Vote(2, 7, 1, 4, Role.LOOKING));
        int from1 = 0;
        int from3 = 0;
        while (from1 < count || from3 < count) {
            Event e = recorders[2].nextMessage();
            if (e.peer() == 1) {
                assertEquals(new ZabMessage.Ack(from1++), e.message());
            } else {
                assertEquals(3, e.peer());
                assertEquals(from3++, java.nio.ByteBuffer.wrap(((ZabMessage.AppData) e.message()).payload()).getInt());
            }
        }
        assertEquals(new Event(2, new ZabMessage.Vote(2, 7, 1, 4, Role.LOOKING)), recorders[1].nextMessage());
        for (int i = 0; i < count; i++) {
            assertEquals(new Event(1, new ZabMessage.Commit(i)), recorders[3].nextMessage());
        }
    }

    /** A batch's equal proposals share one encoding; every follower still gets all of it, in order. */
    @Test
    void aBatchSendsEqualMessagesToEveryPeerInOrder() throws Exception {
        Map<Long, QuorumMember> members = ensemble(3);
        Recorder r2 = new Recorder();
        Recorder r3 = new Recorder();
        PeerTransport t1 = start(1, members, new Recorder(), fast());
        start(2, members, r2, fast());
        start(3, members, r3, fast());
        awaitDelivery(t1, 2, r2);
        awaitDelivery(t1, 3, r3);
        List<Entry> entries = List.of(new Entry(0x100000001L, new byte[] {1, 2, 3}),
                new Entry(0x100000002L, new byte[1024]));
        t1.sendAll(List.of(
                new Outbound(2, new ZabMessage.Propose(List.copyOf(entries))),
                new Outbound(3, new ZabMessage.Propose(List.copyOf(entries))),
                new Outbound(2, new ZabMessage.Commit(0x100000002L)),
                new Outbound(3, new ZabMessage.Commit(0x100000002L)),
                new Outbound(3, new ZabMessage.Ack(0x100000001L))));
        for (Recorder r : List.of(r2, r3)) {
            ZabMessage.Propose propose = (ZabMessage.Propose) r.nextMessage().message();
            assertEquals(2, propose.entries().size());
            assertEquals(0x100000002L, propose.entries().get(1).zxid());
            assertArrayEquals(new byte[] {1, 2, 3}, propose.entries().get(0).payload());
            assertEquals(new ZabMessage.Commit(0x100000002L), r.nextMessage().message());
        }
        assertEquals(new ZabMessage.Ack(0x100000001L), r3.nextMessage().message());
    }

    /**
     * The receiver reads every frame into one reused array (up to a size): each message it
     * delivered must keep its own bytes after later frames, larger and smaller, went through.
     */
    @Test
    void deliveredMessagesKeepTheirBytesWhileLaterFramesArrive() throws Exception {
        Map<Long, QuorumMember> members = ensemble(2);
        Recorder r2 = new Recorder();
        PeerTransport.Options roomy = new PeerTransport.Options(8 << 20, 10_000, 64L << 20, 20, 200, 60_000);
        PeerTransport t1 = start(1, members, new Recorder(), roomy);
        start(2, members, r2, roomy);
        awaitDelivery(t1, 2, r2);
        int[] payloadBytes = {10, 70_000, 3 << 20, 1_000, dev.warden.server.net.FrameScratch.MAX_SCRATCH_BYTES - 64, 5};
        for (int i = 0; i < payloadBytes.length; i++) {
            byte[] payload = new byte[payloadBytes[i]];
            java.util.Arrays.fill(payload, (byte) (i + 1));
            t1.send(2, new ZabMessage.Propose(List.of(new Entry(i + 1, payload), new Entry(i + 100, new byte[] {(byte) i}))));
        }
        List<ZabMessage.Propose> received = new ArrayList<>();
        for (int i = 0; i < payloadBytes.length; i++) {
            received.add((ZabMessage.Propose) r2.nextMessage().message());
        }
        for (int i = 0; i < payloadBytes.length; i++) {
            byte[] payload = received.get(i).entries().get(0).payload();
            assertEquals(payloadBytes[i], payload.length);
            for (byte b : payload) {
                assertEquals((byte) (i + 1), b, "payload of message " + i);
            }
            assertArrayEquals(new byte[] {(byte) i}, received.get(i).entries().get(1).payload());
        }
    }

    @Test
    void connectedMembersLoseNothingAndKeepOrder() throws Exception {
        Map<Long, QuorumMember> members = ensemble(2);
        Recorder r2 = new Recorder();
        PeerTransport t1 = start(1, members, new Recorder(), fast());
        start(2, members, r2, fast());
        awaitDelivery(t1, 2, r2);
        for (int i = 0; i < 2000; i++) {
            t1.send(2, new ZabMessage.Ack(i));
        }
        for (int i = 0; i < 2000; i++) {
            assertEquals(new ZabMessage.Ack(i), r2.nextMessage().message());
        }
    }

    /**
     * Sends a ping and a vote until both have arrived, i.e. until both connections from
     * {@code from} to {@code to} are up; messages sent before that may be dropped.
     */
    private static void awaitDelivery(PeerTransport from, long to, Recorder recorder) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
        boolean ping = false;
        boolean vote = false;
        while (System.nanoTime() < deadline && !(ping && vote)) {
            from.send(to, new ZabMessage.PingAck(-1));
            from.send(to, new ZabMessage.Vote(-1, 0, 0, 0, Role.LOOKING));
            Thread.sleep(20);
            for (Event e; (e = recorder.events.poll()) != null; ) {
                ping |= e.message() instanceof ZabMessage.PingAck;
                vote |= e.message() instanceof ZabMessage.Vote;
            }
        }
        if (!(ping && vote)) {
            throw new AssertionError("never connected");
        }
        Thread.sleep(50); // let stragglers of the probe arrive, then forget them
        recorder.events.clear();
    }

    /**
     * multiAddress.enabled: member 1 knows member 2 at two addresses, the first of which nothing
     * listens on (member 2 binds its second only); member 1 reaches it at the second, with and
     * without the reachability probe.
     */
    @org.junit.jupiter.params.ParameterizedTest(name = "reachability probe: {0}")
    @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
    void aMemberWhoseFirstAddressIsDeadIsReachedAtItsNext(boolean probe) throws Exception {
        QuorumMember one = new QuorumMember(1, "127.0.0.1", FreePorts.pick(), FreePorts.pick(), false, null, 0);
        QuorumMember.PeerAddress live = new QuorumMember.PeerAddress("127.0.0.2", FreePorts.pick(), FreePorts.pick());
        QuorumMember twoAsItListens = new QuorumMember(2, live.host(), live.peerPort(), live.electionPort(), false,
                null, 0);
        QuorumMember twoAsOneKnowsIt = new QuorumMember(2, "127.0.0.1", FreePorts.pick(), FreePorts.pick(), false,
                null, 0, List.of(live));
        Recorder r1 = new Recorder();
        Recorder r2 = new Recorder();
        PeerTransport t1 = new PeerTransport(1, Map.of(1L, one, 2L, twoAsOneKnowsIt), r1, fast());
        open.add(t1);
        if (probe) {
            t1.checkReachability(500);
        }
        t1.start();
        PeerTransport t2 = start(2, Map.of(1L, one, 2L, twoAsItListens), r2, fast());
        awaitDelivery(t1, 2, r2);
        awaitDelivery(t2, 1, r1);
    }

    @Test
    void reconnectsAfterAPeerRestarts() throws Exception {
        Map<Long, QuorumMember> members = ensemble(2);
        Recorder r1 = new Recorder();
        Recorder r2 = new Recorder();
        PeerTransport t1 = start(1, members, r1, fast());
        PeerTransport t2 = start(2, members, r2, fast());
        awaitDelivery(t1, 2, r2);
        awaitDelivery(t2, 1, r1);
        t2.close();
        assertTrue(r1.awaitDisconnect(2), "member 1 learns that member 2 went away");
        Recorder again = new Recorder();
        start(2, members, again, fast());
        awaitDelivery(t1, 2, again);
        t1.send(2, new ZabMessage.Commit(42));
        assertEquals(new Event(1, new ZabMessage.Commit(42)), again.nextMessage());
    }

    /**
     * A member that comes back connects to the others at once; their links back to it must not
     * wait out their redial backoff, or its election answers (and so its rejoining) wait too.
     */
    @Test
    void aRestartedPeerIsRedialledAsSoonAsItConnects() throws Exception {
        Map<Long, QuorumMember> members = ensemble(2);
        PeerTransport.Options slowRedial = new PeerTransport.Options(1 << 20, 10_000, 64L << 20, 20, 30_000, 60_000);
        Recorder r1 = new Recorder();
        PeerTransport t1 = start(1, members, r1, slowRedial);
        PeerTransport t2 = start(2, members, new Recorder(), slowRedial);
        awaitDelivery(t2, 1, r1);
        t2.close();
        assertTrue(r1.awaitDisconnect(2));
        Thread.sleep(3_000); // member 1's redials fail and back off: the next is seconds away
        Recorder again = new Recorder();
        PeerTransport back = start(2, members, again, slowRedial);
        awaitDelivery(back, 1, r1);
        long sentNs = System.nanoTime();
        t1.send(2, new ZabMessage.Commit(7));
        assertEquals(new Event(1, new ZabMessage.Commit(7)), again.nextMessage());
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sentNs);
        assertTrue(tookMs < 1_000, "member 1 redialled member 2 " + tookMs + " ms after it came back");
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
        PeerTransport.Options largeFrames = new PeerTransport.Options(1 << 30, 10_000, 64L << 20, 20, 200, 60_000);
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
        start(1, members, r1, new PeerTransport.Options(1 << 20, 10_000, 64L << 20, 20, 200, helloTimeoutMs));
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
        start(1, members, r1, new PeerTransport.Options(8 << 20, 10_000, 64L << 20, 20, 200, 60_000));
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
            PeerTransport t1 = start(1, members, r1, new PeerTransport.Options(1 << 20, 8, 1 << 20, 20, 200, 60_000));
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

    @Test
    void optionsAreValidated() {
        assertNotNull(PeerTransport.Options.defaults());
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new PeerTransport.Options(1 << 20, 0, 1, 1, 1, 1));
    }

    @Test
    void theQueueBudgetIsAnEighthOfTheHeapWithinItsBoundsAndASyncDiffAQuarterOfIt() {
        long mib = 1L << 20;
        assertEquals(32 * mib, PeerTransport.Options.forHeap(256 * mib).maxQueuedBytes());
        assertEquals(16 * mib, PeerTransport.Options.forHeap(64 * mib).maxQueuedBytes(), "floor");
        assertEquals(256 * mib, PeerTransport.Options.forHeap(8192 * mib).maxQueuedBytes(), "ceiling");
        assertEquals(8 * mib, ZabConsensus.maxSyncDiffBytes(PeerTransport.Options.forHeap(256 * mib)));
        assertEquals(64 * mib, ZabConsensus.maxSyncDiffBytes(PeerTransport.Options.forHeap(4096 * mib)));
    }

    @Test
    void quorumListenOnAllIpsListensBeyondTheServerLineHost() throws Exception {
        Map<Long, QuorumMember> members = ensemble(2);
        QuorumMember one = members.get(1L);
        PeerTransport narrow = start(1, members, new Recorder(), fast());
        // 127.0.0.2 is this machine too, but not the host of server.1's line
        assertFalse(canConnect("127.0.0.2", one.peerPort()), "bound to 127.0.0.1 only");
        narrow.close();
        PeerTransport wide = new PeerTransport(1, members, new Recorder(), fast());
        open.add(wide);
        wide.listenOnAllAddresses();
        wide.start();
        assertTrue(canConnect("127.0.0.2", one.peerPort()), "listening on every address");
        assertTrue(canConnect("127.0.0.2", one.electionPort()), "listening on every address");
    }

    private static boolean canConnect(String host, int port) {
        try (java.net.Socket socket = new java.net.Socket()) {
            socket.connect(new java.net.InetSocketAddress(host, port), 1_000);
            return true;
        } catch (IOException refused) {
            return false;
        }
    }

    @Test
    void aPeerPortInUseNamesTheMembersLineAndTheCause() throws Exception {
        Map<Long, QuorumMember> members = ensemble(2);
        start(1, members, new Recorder(), fast());
        PeerTransport second = new PeerTransport(1, members, new Recorder(), fast());
        open.add(second);
        java.io.UncheckedIOException e = org.junit.jupiter.api.Assertions.assertThrows(
                java.io.UncheckedIOException.class, second::start);
        String message = e.getCause().getMessage();
        assertTrue(message.startsWith("cannot listen on 127.0.0.1:" + members.get(1L).peerPort()
                + ", the peer port of server.1 (its server.1 line): "), message);
        assertTrue(message.contains("another process (or another member) holds that port"), message);
    }
}
