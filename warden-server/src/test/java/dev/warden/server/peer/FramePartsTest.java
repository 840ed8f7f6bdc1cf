package dev.warden.server.peer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.io.ByteArrayOutputStream;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** A large frame leaves in parts of at most a MiB whose bytes together are the frame's; a small one whole. */
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
        ByteBuf first = parts.begin(body);
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
    void aSmallFrameGoesWholeAndClearingDropsTheRestOfALargeOne() {
        FrameParts parts = new FrameParts();
        byte[] small = {1, 2, 3};
        assertArrayEquals(bytes(PeerWire.frame(small)), bytes(parts.begin(small)));
        assertNull(parts.next());

        bytes(parts.begin(new byte[FrameParts.PART_BYTES + 1]));
        parts.clear();
        assertNull(parts.next(), "the connection it was for is gone");
    }
}
