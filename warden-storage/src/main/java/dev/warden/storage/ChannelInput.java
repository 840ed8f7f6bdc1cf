package dev.warden.storage;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Positional reads from a file channel through one reusable window, so that a sequential scan
 * costs one system call per window rather than per record field.
 */
final class ChannelInput {

    private static final int WINDOW_BYTES = 64 * 1024;

    private final FileChannel channel;
    private final ByteBuffer window = ByteBuffer.allocate(WINDOW_BYTES);
    private long windowStart;
    private int windowLength;

    ChannelInput(FileChannel channel) {
        this.channel = channel;
    }

    /** Copies {@code length} bytes at {@code position} into {@code target}; fails at end of file. */
    void readFully(long position, byte[] target, int offset, int length) throws IOException {
        if (length > WINDOW_BYTES) {
            readDirect(position, ByteBuffer.wrap(target, offset, length));
            return;
        }
        if (position < windowStart || position + length > windowStart + windowLength) {
            fill(position, length);
        }
        System.arraycopy(window.array(), (int) (position - windowStart), target, offset, length);
    }

    int readInt(long position, byte[] scratch) throws IOException {
        readFully(position, scratch, 0, 4);
        return ByteBuffer.wrap(scratch, 0, 4).getInt();
    }

    /** True when every byte in [from, to) is zero. */
    boolean isZero(long from, long to) throws IOException {
        long position = from;
        byte[] chunk = new byte[WINDOW_BYTES];
        while (position < to) {
            int length = (int) Math.min(WINDOW_BYTES, to - position);
            readFully(position, chunk, 0, length);
            for (int i = 0; i < length; i++) {
                if (chunk[i] != 0) {
                    return false;
                }
            }
            position += length;
        }
        return true;
    }

    /** Offset of the last non-zero byte in [from, to), or from - 1 if there is none. */
    long lastNonZeroByte(long from, long to) throws IOException {
        long last = from - 1;
        long position = from;
        byte[] chunk = new byte[WINDOW_BYTES];
        while (position < to) {
            int length = (int) Math.min(WINDOW_BYTES, to - position);
            readFully(position, chunk, 0, length);
            for (int i = length - 1; i >= 0; i--) {
                if (chunk[i] != 0) {
                    last = position + i;
                    break;
                }
            }
            position += length;
        }
        return last;
    }

    private void fill(long position, int minimumLength) throws IOException {
        window.clear();
        windowStart = position;
        windowLength = 0;
        while (window.hasRemaining()) {
            int read = channel.read(window, position + window.position());
            if (read < 0) {
                break;
            }
        }
        windowLength = window.position();
        if (windowLength < minimumLength) {
            throw new EOFException("end of file at " + (position + windowLength));
        }
    }

    private void readDirect(long position, ByteBuffer target) throws IOException {
        long at = position;
        while (target.hasRemaining()) {
            int read = channel.read(target, at);
            if (read < 0) {
                throw new EOFException("end of file at " + at);
            }
            at += read;
        }
    }
}
