package dev.warden.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.protocol.OpCode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class OutboxTest {
    private static Packet<Void> packet(String name, boolean idempotent) {
        return new Packet<>(OpCode.EXISTS, name, idempotent, Frames.request(0, OpCode.EXISTS, null),
                (err, in) -> null, System.nanoTime());
    }

    @Test
    void sendsInOrderWithinTheWindowAndMatchesRepliesByXid() {
        Outbox outbox = new Outbox(2, 10);
        Packet<Void> a = packet("/a", true);
        Packet<Void> b = packet("/b", true);
        Packet<Void> c = packet("/c", true);
        assertTrue(outbox.offer(a) && outbox.offer(b) && outbox.offer(c));
        outbox.takeInbox();
        List<byte[]> written = new ArrayList<>();
        outbox.sendReady(written::add);
        assertEquals(2, written.size(), "window of two");
        assertEquals(1, a.xid());
        assertEquals(2, b.xid());
        assertNull(outbox.matchReply(2), "replies must answer the oldest request");
        assertSame(a, outbox.matchReply(1));
        outbox.sendReady(written::add);
        assertEquals(3, c.xid());
    }

    @Test
    void refusesBeyondTheHardCap() {
        Outbox outbox = new Outbox(1, 2);
        assertTrue(outbox.offer(packet("/1", true)));
        assertTrue(outbox.offer(packet("/2", true)));
        assertFalse(outbox.offer(packet("/3", true)));
        outbox.takeInbox();
        outbox.sendReady(frame -> { });
        assertNull(outbox.matchReply(99));
        assertEquals(1, outbox.oldestPendingXid());
    }

    @Test
    void retriedRequestsGoBackAheadOfLaterOnesInTheirOriginalOrder() {
        Outbox outbox = new Outbox(3, 10);
        Packet<Void> read1 = packet("/r1", true);
        Packet<Void> write = packet("/w", false);
        Packet<Void> read2 = packet("/r2", true);
        Packet<Void> later = packet("/later", true);
        outbox.offer(read1);
        outbox.offer(write);
        outbox.offer(read2);
        outbox.offer(later);
        outbox.takeInbox();
        outbox.sendReady(frame -> { });
        List<Packet<?>> lost = new ArrayList<>();
        outbox.requeueAfterDisconnect(RetryPolicy.upTo(1, 60_000), System.nanoTime(), lost::add);
        assertEquals(List.of(write), lost);
        List<Packet<?>> order = outbox.drainAll();
        assertEquals(List.of(read1, read2, later), order);
        assertEquals(1, read1.retries());
    }
}
