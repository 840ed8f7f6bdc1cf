package dev.warden.server.net;

import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.FastThreadLocal;

/**
 * Per-thread arrays that received frames are copied into for decoding. Decoding copies out
 * everything a request or message keeps, and happens on the I/O thread before that thread
 * reads the next frame, so one array per thread serves every connection the thread reads and
 * no frame needs an array of its own. Frames above {@link #MAX_SCRATCH_BYTES} (a 1 MiB value,
 * a snapshot sent to a follower) get their own, so no thread keeps a large array for good.
 */
public final class FrameScratch {
    public static final int MAX_SCRATCH_BYTES = 1 << 20;
    private static final int FIRST_SCRATCH_BYTES = 4 << 10;

    private static final FastThreadLocal<byte[][]> SCRATCH = new FastThreadLocal<>() {
        @Override
        protected byte[][] initialValue() {
            return new byte[][] {new byte[FIRST_SCRATCH_BYTES]};
        }
    };

    private FrameScratch() {
    }

    /**
     * The readable bytes of {@code frame}, from index 0 of the returned array, which may be
     * longer. The array is valid until this thread's next call; the frame is not released.
     */
    public static byte[] copy(ByteBuf frame) {
        int length = frame.readableBytes();
        byte[] target;
        if (length > MAX_SCRATCH_BYTES) {
            target = new byte[length];
        } else {
            byte[][] holder = SCRATCH.get();
            if (holder[0].length < length) {
                holder[0] = new byte[Math.min(MAX_SCRATCH_BYTES, Math.max(length, 2 * holder[0].length))];
            }
            target = holder[0];
        }
        frame.getBytes(frame.readerIndex(), target, 0, length);
        return target;
    }
}
