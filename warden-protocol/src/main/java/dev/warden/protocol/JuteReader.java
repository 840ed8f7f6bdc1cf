package dev.warden.protocol;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads jute's binary encoding (big-endian, length-prefixed buffers and strings, -1 for null)
 * from a byte array slice. Every failure is a {@link ProtocolException}; nothing else escapes,
 * so a malformed frame can never take a server thread down with an unexpected exception.
 */
public final class JuteReader {
    /** Default bound on one buffer/string field: jute.maxbuffer plus the same again as extrasize. */
    public static final int DEFAULT_MAX_FIELD_BYTES = 2 * 0xfffff;

    private final byte[] bytes;
    private final int limit;
    private final int maxFieldBytes;
    private int position;

    public JuteReader(byte[] bytes) {
        this(bytes, 0, bytes.length, DEFAULT_MAX_FIELD_BYTES);
    }

    public JuteReader(byte[] bytes, int offset, int length, int maxFieldBytes) {
        // Compared by subtraction: offset + length can overflow and slip past the check.
        if (offset < 0 || length < 0 || length > bytes.length - offset) {
            throw new IllegalArgumentException("slice out of range");
        }
        this.bytes = bytes;
        this.position = offset;
        this.limit = offset + length;
        this.maxFieldBytes = maxFieldBytes;
    }

    public int remaining() {
        return limit - position;
    }

    public boolean hasRemaining() {
        return position < limit;
    }

    private void need(int count, String what) {
        if (limit - position < count) {
            throw new ProtocolException("truncated record: need " + count + " bytes for " + what
                    + ", " + (limit - position) + " left");
        }
    }

    public byte readByte() {
        need(1, "byte");
        return bytes[position++];
    }

    public boolean readBool() {
        return readByte() != 0;
    }

    public int readInt() {
        need(4, "int");
        int value = ((bytes[position] & 0xff) << 24) | ((bytes[position + 1] & 0xff) << 16)
                | ((bytes[position + 2] & 0xff) << 8) | (bytes[position + 3] & 0xff);
        position += 4;
        return value;
    }

    public long readLong() {
        need(8, "long");
        long high = readInt() & 0xffffffffL;
        long low = readInt() & 0xffffffffL;
        return (high << 32) | low;
    }

    private int readLength(String what) {
        int length = readInt();
        if (length < -1) {
            throw new ProtocolException("negative length " + length + " for " + what);
        }
        if (length > maxFieldBytes) {
            throw new ProtocolException("length " + length + " for " + what + " exceeds " + maxFieldBytes);
        }
        if (length > 0) {
            need(length, what);
        }
        return length;
    }

    /** A buffer; null when the encoded length is -1. */
    public byte[] readBuffer() {
        int length = readLength("buffer");
        if (length < 0) {
            return null;
        }
        byte[] copy = new byte[length];
        System.arraycopy(bytes, position, copy, 0, length);
        position += length;
        return copy;
    }

    /** A UTF-8 string; null when the encoded length is -1. */
    public String readString() {
        int length = readLength("string");
        if (length < 0) {
            return null;
        }
        String value = new String(bytes, position, length, StandardCharsets.UTF_8);
        position += length;
        return value;
    }

    /** A vector of strings; null when the count is -1. */
    public List<String> readStringList() {
        int count = readCount("vector<ustring>");
        if (count < 0) {
            return null;
        }
        List<String> values = new ArrayList<>(Math.min(count, 1024));
        for (int i = 0; i < count; i++) {
            values.add(readString());
        }
        return values;
    }

    /** A vector of records; null when the count is -1. */
    public <T> List<T> readList(RecordDecoder<T> decoder) {
        int count = readCount("vector");
        if (count < 0) {
            return null;
        }
        List<T> values = new ArrayList<>(Math.min(count, 1024));
        for (int i = 0; i < count; i++) {
            values.add(decoder.decode(this));
        }
        return values;
    }

    private int readCount(String what) {
        int count = readInt();
        if (count < -1) {
            throw new ProtocolException("negative count " + count + " for " + what);
        }
        // Each element takes at least 4 bytes on the wire; a count beyond that is garbage,
        // and checking it up front avoids allocating for it.
        if (count > 0 && (long) count * 4 > remaining()) {
            throw new ProtocolException("count " + count + " for " + what + " exceeds the bytes left");
        }
        return count;
    }

    /** Fails unless the whole slice was consumed; used where trailing bytes mean a malformed frame. */
    public void expectEnd(String what) {
        if (hasRemaining()) {
            throw new ProtocolException(remaining() + " unexpected trailing bytes after " + what);
        }
    }

    /** Decodes one record from a reader. */
    @FunctionalInterface
    public interface RecordDecoder<T> {
        T decode(JuteReader in);
    }
}
