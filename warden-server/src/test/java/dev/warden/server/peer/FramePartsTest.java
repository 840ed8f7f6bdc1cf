package dev.warden.server.peer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.warden.consensus.ZabCodec;
import dev.warden.consensus.ZabMessage;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.io.ByteArrayOutputStream;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A large frame leaves in parts of at most a MiB whose bytes together are the frame's, a SNAP's
 * head and snapshot one after the other; a small one whole.
 */
class FramePartsTest {
    private static byte[] bytes(ByteBuf buffer) {
        try {
            return ByteBufUtil.getBytes(buffer);
        } finally {
            buffer.release();
        }
    }

    @Test
    void aLargeFrameGoesInPartsThatTogetherAreTheWholeFrame() {
        byte[] body = new byte[3 * FrameParts.PART_BYTES + 12345];
        new SplittableRandom(7).nextBytes(body);
        FrameParts parts = new FrameParts();
        ByteArrayOutputStream written = new ByteArrayOutputStream();
        ByteBuf first = parts.begin(new OutboundFrame(body, new byte[0]));
        assertEquals(PeerWire.LENGTH_BYTES + FrameParts.PART_BYTES, first.readableBytes());
        written.writeBytes(bytes(first));
        int count = 1;
        for (ByteBuf part = parts.next(); part != null; part = parts.next()) {
            assertEquals(count < 3 ? FrameParts.PART_BYTES : 12345, part.readableBytes());
            written.writeBytes(bytes(part));
            count++;
        }
        assertEquals(4, count);
        assertArrayEquals(bytes(PeerWire.frame(body)), written.toByteArray());
    }

    @Test
    void aSnapsFrameIsItsHeadThenTheSnapshotWithoutACopy() {
        byte[] snapshot = new byte[2 * FrameParts.PART_BYTES + 7];
        new SplittableRandom(11).nextBytes(snapshot);
        ZabMessage.Snap snap = new ZabMessage.Snap(0x100000042L, snapshot);
        OutboundFrame frame = OutboundFrame.of(snap);
        assertSame(snapshot, frame.tail(), "the snapshot's own array, not a copy");
        FrameParts parts = new FrameParts();
        ByteArrayOutputStream written = new ByteArrayOutputStream();
        written.writeBytes(bytes(parts.begin(frame)));
        for (ByteBuf part = parts.next(); part != null; part = parts.next()) {
            written.writeBytes(bytes(part));
        }
        assertArrayEquals(bytes(PeerWire.frame(ZabCodec.encode(snap))), written.toByteArray());

        byte[] small = {1, 2, 3};
        OutboundFrame smallSnap = OutboundFrame.of(new ZabMessage.Snap(7, small));
        assertArrayEquals(bytes(PeerWire.frame(ZabCodec.encode(new ZabMessage.Snap(7, small)))),
                bytes(parts.begin(smallSnap)));
        assertNull(parts.next());
    }

    @Test
    void aSmallFrameGoesWholeAndClearingDropsTheRestOfALargeOne() {
        FrameParts parts = new FrameParts();
        byte[] small = {1, 2, 3};
        assertArrayEquals(bytes(PeerWire.frame(small)), bytes(parts.begin(new OutboundFrame(small, new byte[0]))));
        assertNull(parts.next());

        bytes(parts.begin(new OutboundFrame(new byte[FrameParts.PART_BYTES + 1], new byte[0])));
        parts.clear();
        assertNull(parts.next(), "the connection it was for is gone");
    }
}
