package dev.warden.server.admin;

import io.netty.buffer.ByteBuf;
import java.util.Arrays;

/** A restore request's body as it arrives, kept whole (it is verified and logged as one) up to a limit. */
final class RestoreBody {
    private final int maxBytes;
    private byte[] bytes;
    private int length;
    private long receivedBytes;

    /** @param expectedBytes the declared Content-Length (0 if none): the buffer starts that large */
    RestoreBody(int maxBytes, int expectedBytes) {
        this.maxBytes = maxBytes;
        this.bytes = new byte[Math.min(Math.max(expectedBytes, 4096), maxBytes)];
    }

    /** Appends a chunk; false once the body has grown past the limit (nothing more is kept). */
    boolean append(ByteBuf chunk) {
        int readable = chunk.readableBytes();
        receivedBytes += readable;
        if (receivedBytes > maxBytes) {
            bytes = null;
            return false;
        }
        if (length + readable > bytes.length) {
            bytes = Arrays.copyOf(bytes, (int) Math.min(maxBytes, Math.max((long) bytes.length * 2, length + readable)));
        }
        chunk.getBytes(chunk.readerIndex(), bytes, length, readable);
        length += readable;
        return true;
    }

    long receivedBytes() {
        return receivedBytes;
    }

    byte[] bytes() {
        return length == bytes.length ? bytes : Arrays.copyOf(bytes, length);
    }
}
