package dev.warden.storage;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/** Reads at most a fixed number of bytes from the underlying stream, then reports its end. */
final class LimitedInputStream extends FilterInputStream {

    private long remainingBytes;

    LimitedInputStream(InputStream in, long limitBytes) {
        super(in);
        this.remainingBytes = limitBytes;
    }

    @Override
    public int read() throws IOException {
        if (remainingBytes == 0) {
            return -1;
        }
        int value = super.read();
        if (value >= 0) {
            remainingBytes--;
        }
        return value;
    }

    @Override
    public int read(byte[] target, int offset, int length) throws IOException {
        if (remainingBytes == 0) {
            return length == 0 ? 0 : -1;
        }
        int read = super.read(target, offset, (int) Math.min(length, remainingBytes));
        if (read > 0) {
            remainingBytes -= read;
        }
        return read;
    }

    @Override
    public long skip(long count) throws IOException {
        long skipped = super.skip(Math.min(count, remainingBytes));
        remainingBytes -= skipped;
        return skipped;
    }

    @Override
    public int available() throws IOException {
        return (int) Math.min(super.available(), remainingBytes);
    }

    @Override
    public boolean markSupported() {
        return false;
    }
}
