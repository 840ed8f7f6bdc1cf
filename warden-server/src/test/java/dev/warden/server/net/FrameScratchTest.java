package dev.warden.server.net;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class FrameScratchTest {
    private static ByteBuf frame(int length, int fill) {
        byte[] bytes = new byte[length + 3];
        Arrays.fill(bytes, (byte) fill);
        // readable bytes start past a prefix, as a slice of a larger read does
        return Unpooled.wrappedBuffer(bytes).skipBytes(3);
    }

    private static void assertFilled(byte[] array, int length, int fill) {
        for (int i = 0; i < length; i++) {
            assertEquals((byte) fill, array[i], "byte " + i);
        }
    }

    @Test
    void copiesTheReadableBytesToTheStartOfTheThreadsArray() {
        ByteBuf small = frame(100, 7);
        byte[] first = FrameScratch.copy(small);
        assertFilled(first, 100, 7);
        assertEquals(3, small.readerIndex(), "the frame is left as it was");
        byte[] second = FrameScratch.copy(frame(50, 9));
        assertSame(first, second, "a frame that fits reuses the array");
        assertFilled(second, 50, 9);
    }

    @Test
    void growsForLargerFramesUpToTheCap() {
        FrameScratch.copy(frame(10, 1));
        byte[] grown = FrameScratch.copy(frame(200_000, 2));
        assertTrue(grown.length >= 200_000 && grown.length <= FrameScratch.MAX_SCRATCH_BYTES, "" + grown.length);
        assertFilled(grown, 200_000, 2);
        assertSame(grown, FrameScratch.copy(frame(10, 3)), "a grown array stays for the next frames");
    }

    @Test
    void framesAboveTheCapGetAnArrayOfTheirOwn() {
        byte[] scratch = FrameScratch.copy(frame(10, 1));
        int length = FrameScratch.MAX_SCRATCH_BYTES + 1;
        byte[] own = FrameScratch.copy(frame(length, 4));
        assertNotSame(scratch, own);
        assertEquals(length, own.length);
        assertFilled(own, length, 4);
        assertSame(scratch, FrameScratch.copy(frame(10, 5)), "the thread keeps its small array");
    }

    @Test
    void eachThreadHasItsOwnArray() throws Exception {
        byte[] mine = FrameScratch.copy(frame(16, 1));
        AtomicReference<byte[]> theirs = new AtomicReference<>();
        Thread other = new Thread(() -> theirs.set(FrameScratch.copy(frame(16, 2))));
        other.start();
        other.join();
        assertNotSame(mine, theirs.get());
        assertArrayEquals(new byte[] {1, 1, 1, 1}, Arrays.copyOf(mine, 4), "the other thread did not write here");
    }
}
