package dev.warden.server.peer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.consensus.Entry;
import dev.warden.consensus.Outbound;
import dev.warden.consensus.Role;
import dev.warden.consensus.ZabMessage;
import dev.warden.server.FreePorts;
import dev.warden.server.config.QuorumMember;
import java.io.IOException;
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
    static final long WAIT_MS = 10_000;

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

    private final TransportsUnderTest open = new TransportsUnderTest();

    @AfterEach
    void closeAll() throws Exception {
        open.close();
    }

    static Map<Long, QuorumMember> ensemble(int size) throws IOException {
        Map<Long, QuorumMember> members = new LinkedHashMap<>();
        for (long id = 1; id <= size; id++) {
            members.put(id, new QuorumMember(id, "127.0.0.1", FreePorts.pick(), FreePorts.pick(), false, null, 0));
        }
        return members;
    }

    private PeerTransport start(long id, Map<Long, QuorumMember> members, PeerHandler handler,
                                PeerOptions options) throws InterruptedException {
        return open.start(id, members, handler, options);
    }

    /**
     * Small frames and quick redials. The hello timeout is far above {@link #WAIT_MS}, so a
     * connection seen closed within it was closed for what it sent, not for being slow.
     */
    static PeerOptions fast() {
        return new PeerOptions(1 << 20, 10_000, 64L << 20, 20, 200, 60_000);
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

    /** Members 1 and 2 linked with frames of up to 8 MiB, 2 recording into {@code r2}; returns 1's transport. */
    private PeerTransport roomyPairTo(Recorder r2) throws Exception {
        Map<Long, QuorumMember> members = ensemble(2);
        PeerOptions roomy = new PeerOptions(8 << 20, 10_000, 64L << 20, 20, 200, 60_000);
        PeerTransport t1 = start(1, members, new Recorder(), roomy);
        start(2, members, r2, roomy);
        awaitDelivery(t1, 2, r2);
        return t1;
    }

    /**
     * The receiver reads every frame into one reused array (up to a size): each message it
     * delivered must keep its own bytes after later frames, larger and smaller, went through.
     */
    @Test
    void deliveredMessagesKeepTheirBytesWhileLaterFramesArrive() throws Exception {
        Recorder r2 = new Recorder();
        PeerTransport t1 = roomyPairTo(r2);
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

    /** A SNAP larger than a write part crosses a real connection intact, and what follows it comes after it. */
    @Test
    void aLargeSnapArrivesWholeBeforeWhatFollowsIt() throws Exception {
        Recorder r2 = new Recorder();
        PeerTransport t1 = roomyPairTo(r2);
        byte[] snapshot = new byte[3 * FrameParts.PART_BYTES + 12_345];
        new java.util.SplittableRandom(3).nextBytes(snapshot);
        t1.sendAll(List.of(new Outbound(2, new ZabMessage.Snap(0x100000007L, snapshot)),
                new Outbound(2, new ZabMessage.Commit(0x100000008L))));
        ZabMessage.Snap received = (ZabMessage.Snap) r2.nextMessage().message();
        assertEquals(0x100000007L, received.zxid());
        assertArrayEquals(snapshot, received.snapshot());
        assertEquals(new ZabMessage.Commit(0x100000008L), r2.nextMessage().message());
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
    static void awaitDelivery(PeerTransport from, long to, Recorder recorder) throws InterruptedException {
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
        PeerOptions slowRedial = new PeerOptions(1 << 20, 10_000, 64L << 20, 20, 30_000, 60_000);
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

    /**
     * A member that answers on a port keeps its connections; one that sends nothing there for the
     * silence limit after frames went to it is connected to afresh (reported disconnected, then
     * reached again over a new connection).
     */
    @Test
    void aMemberSilentOnAPortAfterFramesWentToItIsConnectedToAfresh() throws Exception {
        Map<Long, QuorumMember> members = ensemble(2);
        Recorder r1 = new Recorder();
        Recorder r2 = new Recorder();
        PeerTransport t1 = start(1, members, r1, fast().withSilenceLimitMs(300));
        PeerTransport t2 = start(2, members, r2, fast());
        awaitDelivery(t1, 2, r2);
        awaitDelivery(t2, 1, r1);
        r1.events.clear();

        for (int i = 0; i < 20; i++) { // a second of frames both ways: answered, so kept
            t1.send(2, new ZabMessage.Commit(i));
            t2.send(1, new ZabMessage.Ack(i));
            Thread.sleep(50);
        }
        assertTrue(r1.events.stream().noneMatch(e -> e.message() == null), "no disconnect while member 2 answers");

        boolean reconnected = false;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
        while (!reconnected && System.nanoTime() < deadline) { // frames to member 2, nothing back
            t1.send(2, new ZabMessage.Commit(99));
            Event e = r1.events.poll(50, TimeUnit.MILLISECONDS);
            reconnected = e != null && e.message() == null && e.peer() == 2;
        }
        assertTrue(reconnected, "member 1 dropped its connection to the silent member 2");
        awaitDelivery(t1, 2, r2); // and reaches it again over a new one
    }

    /**
     * A member that connects again while this member still holds its older connection gave that
     * one up, and with it its end of this member's connection to it; if that close was lost (a
     * partition), this member's connection is a dead one TCP would retry only at its backed-off
     * retransmission. So it is replaced at once, not at the end of the redial backoff (30 s here),
     * unless it is younger than a second (then the member cannot have closed it, and two members
     * could otherwise replace each other's new connections in turn). Member 2 is played by plain
     * sockets: its new hellos come while its first connection is still open, as after a partition
     * that swallowed its close.
     */
    @Test
    void aMemberThatConnectsAgainWhileItsOldConnectionLooksOpenIsDialledAfresh() throws Exception {
        Map<Long, QuorumMember> members = ensemble(2);
        PeerOptions slowRedial = new PeerOptions(1 << 20, 10_000, 64L << 20, 20, 30_000, 60_000);
        try (java.net.ServerSocket memberTwo = new java.net.ServerSocket()) {
            memberTwo.bind(new java.net.InetSocketAddress("127.0.0.1", members.get(2L).peerPort()));
            memberTwo.setSoTimeout((int) WAIT_MS);
            PeerTransport t1 = start(1, members, new Recorder(), slowRedial);
            java.net.Socket firstFromOne = memberTwo.accept(); // member 1 dials member 2 as it starts
            int onePort = members.get(1L).peerPort();
            try (Socket first = helloAsMemberTwo(onePort); Socket second = helloAsMemberTwo(onePort)) {
                memberTwo.setSoTimeout(700); // a connection made under a second ago stays
                assertThrows(java.net.SocketTimeoutException.class, memberTwo::accept);
                Thread.sleep(PeerLink.REPLACE_MIN_AGE_MS);
                try (Socket third = helloAsMemberTwo(onePort)) {
                    long helloNs = System.nanoTime();
                    memberTwo.setSoTimeout((int) WAIT_MS);
                    java.net.Socket secondFromOne = memberTwo.accept();
                    long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - helloNs);
                    assertTrue(tookMs < 2_000, "member 1 dialled member 2 afresh " + tookMs + " ms after its hello");
                    firstFromOne.setSoTimeout((int) WAIT_MS);
                    assertEquals(-1, skipHello(firstFromOne), "member 1 closed its old connection to member 2");
                    secondFromOne.close();
                }
                assertNotNull(t1);
            }
            firstFromOne.close();
        }
    }

    private static Socket helloAsMemberTwo(int port) throws IOException {
        Socket socket = new Socket("127.0.0.1", port);
        io.netty.buffer.ByteBuf hello = PeerWire.hello(2, 0);
        byte[] bytes = new byte[hello.readableBytes()];
        hello.readBytes(bytes);
        hello.release();
        socket.getOutputStream().write(bytes);
        socket.getOutputStream().flush();
        return socket;
    }

    /** Reads what member 1 sent on {@code socket} until it closes it: -1 then. */
    private static int skipHello(Socket socket) throws IOException {
        java.io.InputStream in = socket.getInputStream();
        int read;
        while ((read = in.read()) != -1) {
            // its hello, and nothing else
        }
        return read;
    }

    @Test
    void optionsAreValidated() {
        assertNotNull(PeerOptions.defaults());
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new PeerOptions(1 << 20, 0, 1, 1, 1, 1));
    }

    @Test
    void theQueueBudgetIsAnEighthOfTheHeapWithinItsBounds() {
        long mib = 1L << 20;
        assertEquals(32 * mib, PeerOptions.forHeap(256 * mib).maxQueuedBytes());
        assertEquals(16 * mib, PeerOptions.forHeap(64 * mib).maxQueuedBytes(), "floor");
        assertEquals(256 * mib, PeerOptions.forHeap(8192 * mib).maxQueuedBytes(), "ceiling");
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
