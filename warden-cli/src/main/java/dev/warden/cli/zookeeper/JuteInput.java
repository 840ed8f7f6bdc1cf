package dev.warden.cli.zookeeper;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.zip.Adler32;

/**
 * Reads ZooKeeper's jute encoding (big-endian ints and longs; strings and buffers as an int
 * length, -1 for null, then the bytes) from a stream, counting bytes so errors can name an
 * offset, and keeping the Adler32 of everything read, which ZooKeeper's snapshots seal with.
 */
final class JuteInput {
    private final InputStream in;
    private final Path file;
    private final Adler32 adler = new Adler32();
    private final byte[] scratch = new byte[8];
    private long position;

    JuteInput(InputStream in, Path file, long startOffset) {
        this.in = in;
        this.file = file;
        this.position = startOffset;
    }

    /**
     * How many bytes are left, if at most {@code max} (else max + 1), without consuming them or
     * counting them in the checksum. The stream must support mark and reset.
     */
    int peekRemaining(int max) throws IOException {
        in.mark(max + 2);
        int count = 0;
        while (count <= max && in.read() >= 0) {
            count++;
        }
        in.reset();
        return count;
    }

    long position() {
        return position;
    }

    Path file() {
        return file;
    }

    /** The Adler32 of every byte read so far. */
    long checksum() {
        return adler.getValue();
    }

    ZkFormatException error(long offset, String reason) {
        return new ZkFormatException(file, offset, reason);
    }

    void readFully(byte[] target, int length) throws IOException {
        int done = 0;
        while (done < length) {
            int read = in.read(target, done, length - done);
            if (read < 0) {
                throw new EOFException();
            }
            done += read;
        }
        adler.update(target, 0, length);
        position += length;
    }

    int readInt() throws IOException {
        readFully(scratch, 4);
        return (scratch[0] & 0xff) << 24 | (scratch[1] & 0xff) << 16 | (scratch[2] & 0xff) << 8 | scratch[3] & 0xff;
    }

    long readLong() throws IOException {
        readFully(scratch, 8);
        long value = 0;
        for (int i = 0; i < 8; i++) {
            value = value << 8 | scratch[i] & 0xff;
        }
        return value;
    }

    byte readByte() throws IOException {
        readFully(scratch, 1);
        return scratch[0];
    }

    boolean readBoolean() throws IOException {
        return readByte() != 0;
    }

    /** A buffer of at most {@code maxBytes}; null when the length is -1. */
    byte[] readBuffer(int maxBytes, String what) throws IOException {
        long at = position;
        int length = readInt();
        if (length == -1) {
            return null;
        }
        if (length < 0 || length > maxBytes) {
            throw error(at, what + " claims " + length + " bytes");
        }
        byte[] bytes = new byte[length];
        readFully(bytes, length);
        return bytes;
    }

    String readString(int maxBytes, String what) throws IOException {
        byte[] bytes = readBuffer(maxBytes, what);
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }
}
