package dev.warden.protocol;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Writes jute's binary encoding into a growable array. A writer can be reused with
 * {@link #reset()} to avoid allocating per message on hot paths.
 */
public final class JuteWriter {
    private byte[] bytes;
    private int size;

    public JuteWriter() {
        this(256);
    }

    public JuteWriter(int initialCapacity) {
        bytes = new byte[Math.max(16, initialCapacity)];
    }

    public int size() {
        return size;
    }

    /** The backing array; valid bytes are [0, size()). */
    public byte[] array() {
        return bytes;
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(bytes, size);
    }

    public void reset() {
        size = 0;
    }

    private void ensure(int extra) {
        if (size + extra > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + extra));
        }
    }

    public JuteWriter writeByte(int value) {
        ensure(1);
        bytes[size++] = (byte) value;
        return this;
    }

    public JuteWriter writeBool(boolean value) {
        return writeByte(value ? 1 : 0);
    }

    public JuteWriter writeInt(int value) {
        ensure(4);
        bytes[size] = (byte) (value >>> 24);
        bytes[size + 1] = (byte) (value >>> 16);
        bytes[size + 2] = (byte) (value >>> 8);
        bytes[size + 3] = (byte) value;
        size += 4;
        return this;
    }

    /** Overwrites an int written earlier, e.g. a frame length reserved before the body. */
    public void setInt(int at, int value) {
        bytes[at] = (byte) (value >>> 24);
        bytes[at + 1] = (byte) (value >>> 16);
        bytes[at + 2] = (byte) (value >>> 8);
        bytes[at + 3] = (byte) value;
    }

    public JuteWriter writeLong(long value) {
        writeInt((int) (value >>> 32));
        return writeInt((int) value);
    }

    public JuteWriter writeBuffer(byte[] value) {
        if (value == null) {
            return writeInt(-1);
        }
        writeInt(value.length);
        ensure(value.length);
        System.arraycopy(value, 0, bytes, size, value.length);
        size += value.length;
        return this;
    }

    public JuteWriter writeRaw(byte[] value, int offset, int length) {
        ensure(length);
        System.arraycopy(value, offset, bytes, size, length);
        size += length;
        return this;
    }

    public JuteWriter writeString(String value) {
        if (value == null) {
            return writeInt(-1);
        }
        // ASCII fast path: paths are almost always ASCII, so skip the encoder's allocation.
        int length = value.length();
        boolean ascii = true;
        for (int i = 0; i < length; i++) {
            if (value.charAt(i) >= 0x80) {
                ascii = false;
                break;
            }
        }
        if (!ascii) {
            return writeBuffer(value.getBytes(StandardCharsets.UTF_8));
        }
        writeInt(length);
        ensure(length);
        for (int i = 0; i < length; i++) {
            bytes[size++] = (byte) value.charAt(i);
        }
        return this;
    }

    /** Bytes {@link #writeString} takes for {@code value} when it is ASCII; a lower bound otherwise. */
    public static int stringSizeHint(String value) {
        return value == null ? 4 : 4 + value.length();
    }

    /** Bytes {@link #writeBuffer} takes for {@code value}. */
    public static int bufferSizeHint(byte[] value) {
        return value == null ? 4 : 4 + value.length;
    }

    /** Bytes {@link #writeList} takes, from the records' own hints. */
    public static int listSizeHint(List<? extends Record> values) {
        if (values == null) {
            return 4;
        }
        int bytes = 4;
        for (Record value : values) {
            bytes += value.sizeHintBytes();
        }
        return bytes;
    }

    /**
     * The written bytes: the backing array itself when it is exactly full, else a copy. For
     * writers sized exactly from a hint and not used afterwards, this saves the trimming copy.
     */
    public byte[] toExactArray() {
        return size == bytes.length ? bytes : toByteArray();
    }

    /** Bytes {@link #writeStringList} takes for ASCII strings; a lower bound otherwise. */
    public static int stringListSizeHint(List<String> values) {
        if (values == null) {
            return 4;
        }
        int bytes = 4;
        for (String value : values) {
            bytes += stringSizeHint(value);
        }
        return bytes;
    }

    public JuteWriter writeStringList(List<String> values) {
        if (values == null) {
            return writeInt(-1);
        }
        writeInt(values.size());
        for (String value : values) {
            writeString(value);
        }
        return this;
    }

    public JuteWriter writeList(List<? extends Record> values) {
        if (values == null) {
            return writeInt(-1);
        }
        writeInt(values.size());
        for (Record value : values) {
            value.writeTo(this);
        }
        return this;
    }

    public JuteWriter write(Record record) {
        record.writeTo(this);
        return this;
    }
}
