package dev.warden.server.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A connection's outbound queue: frames leave in the order they were queued, and none after a close. */
class OutboundFramesTest {
    private final ServerContext server = new ServerContext(null, null, null, null, null, null,
            new ServerStats(0, null), null);
    private final EmbeddedChannel channel = new EmbeddedChannel();
    private final OutboundFrames outbound = new OutboundFrames(server, new ClientConnection(server, null));

    OutboundFramesTest() {
        outbound.attach(channel);
    }

    @Test
    void framesQueuedBeforeADrainLeaveInQueueOrder() {
        for (int i = 0; i < 1_000; i++) {
            outbound.sendEncoded(frame(i), i);
        }
        channel.runPendingTasks();
        assertEquals(range(0, 1_000), written());
        outbound.sendEncoded(frame(1_000), 1_000);
        channel.runPendingTasks();
        assertEquals(List.of(1_000), written());
        assertEquals(1_000, outbound.lastZxidSent());
    }

    @Test
    void nothingQueuedAfterTheCloseMarkerIsWritten() {
        outbound.sendEncoded(frame(1), 1);
        outbound.closeAfterFlush();
        outbound.sendEncoded(frame(2), 2);
        channel.runPendingTasks();
        assertEquals(List.of(1), written());
        assertTrue(outbound.closing());
        assertFalse(channel.isOpen());
        outbound.sendEncoded(frame(3), 3);
        channel.runPendingTasks();
        assertNull(channel.readOutbound());
    }

    @Test
    void releaseAllLeavesNothingToDrain() {
        for (int i = 0; i < 3; i++) {
            outbound.sendEncoded(frame(i), i);
        }
        outbound.releaseAll();
        channel.runPendingTasks();
        assertNull(channel.readOutbound());
    }

    private static byte[] frame(int value) {
        return ByteBuffer.allocate(8).putInt(4).putInt(value).array();
    }

    private List<Integer> written() {
        List<Integer> values = new ArrayList<>();
        for (ByteBuf buf = channel.readOutbound(); buf != null; buf = channel.readOutbound()) {
            if (buf.readableBytes() == 8) {
                values.add(buf.getInt(4));
            }
            buf.release();
        }
        return values;
    }

    private static List<Integer> range(int from, int to) {
        List<Integer> values = new ArrayList<>();
        for (int i = from; i < to; i++) {
            values.add(i);
        }
        return values;
    }
}
