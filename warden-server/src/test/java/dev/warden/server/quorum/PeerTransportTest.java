package dev.warden.server.quorum;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.consensus.Entry;
import dev.warden.consensus.Outbound;
import dev.warden.consensus.Role;
import dev.warden.consensus.ZabMessage;
import dev.warden.server.FreePorts;
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

    private static PeerTransport.Options fast() {
        return new PeerTransport.Options(1 << 20, 10_000, 64L << 20, 20, 200);
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
        PeerTransport.Options roomy = new PeerTransport.Options(8 << 20, 10_000, 64L << 20, 20, 200);
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

    @Test
    void badHelloAndUnknownSendersAreRejected() throws Exception {
        Map<Long, QuorumMember> members = ensemble(2);
        Recorder r1 = new Recorder();
        start(1, members, r1, fast());
        int port = members.get(1L).peerPort();
        assertClosedAfter(port, out -> {
            out.writeInt(16);
            out.writeInt(0x12345678);
            out.writeInt(1);
            out.writeLong(2);
        });
        assertClosedAfter(port, out -> hello(out, 99));
        assertClosedAfter(port, out -> hello(out, 1)); // itself
        assertClosedAfter(port, out -> { // a real member, but of peer protocol version 1 (no LeaderDurable)
            out.writeInt(16);
            out.writeInt(PeerWire.MAGIC);
            out.writeInt(1);
            out.writeLong(2);
        });
        assertClosedAfter(port, out -> out.write("GET / HTTP/1.1\r\n\r\n".getBytes()));
        assertTrue(r1.events.isEmpty(), "no events from rejected connections: " + r1.events);
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
            PeerTransport t1 = start(1, members, r1, new PeerTransport.Options(1 << 20, 8, 1 << 20, 20, 200));
            Socket accepted = stalled.accept();
            open.add(accepted);
            // The hello is written once the link has its channel: flooding before that would
            // overflow a queue with no connection to close, and this connection would stay open.
            accepted.setSoTimeout((int) WAIT_MS);
            DataInputStream in = new DataInputStream(accepted.getInputStream());
            assertEquals(16, in.readInt());
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

    private interface Writer {
        void write(DataOutputStream out) throws IOException;
    }

    private static void hello(DataOutputStream out, long id) throws IOException {
        out.writeInt(16);
        out.writeInt(PeerWire.MAGIC);
        out.writeInt(PeerWire.VERSION);
        out.writeLong(id);
    }

    private static void assertClosedAfter(int port, Writer writer) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout((int) WAIT_MS);
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            writer.write(out);
            out.flush();
            assertEquals(-1, socket.getInputStream().read(), "the server closes the connection");
        }
    }

    @Test
    void optionsAreValidated() {
        assertNotNull(PeerTransport.Options.defaults());
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new PeerTransport.Options(1 << 20, 0, 1, 1, 1));
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
}
