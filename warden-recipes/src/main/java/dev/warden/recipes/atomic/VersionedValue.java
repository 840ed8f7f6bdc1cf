package dev.warden.recipes.atomic;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.UUID;

/**
 * What an atomic value's node holds: a marker, the id of the write that put it there, the id
 * of the write before it, and the value. The write ids let a writer whose reply was lost find
 * out whether its write was applied, even if one other write followed it; without them a
 * retried increment could count twice. Data without the marker (written by another tool) is
 * read as a bare value.
 */
record VersionedValue(UUID writeId, UUID previousWriteId, byte[] value) {
    private static final byte[] MARKER = {'W', 'a', 'v', '1'};
    private static final int HEADER_BYTES = MARKER.length + 32;
    static final UUID NONE = new UUID(0, 0);

    byte[] encode() {
        ByteBuffer out = ByteBuffer.allocate(HEADER_BYTES + value.length);
        out.put(MARKER);
        out.putLong(writeId.getMostSignificantBits()).putLong(writeId.getLeastSignificantBits());
        out.putLong(previousWriteId.getMostSignificantBits()).putLong(previousWriteId.getLeastSignificantBits());
        out.put(value);
        return out.array();
    }

    static VersionedValue decode(byte[] data) {
        if (data == null || data.length < HEADER_BYTES || !Arrays.equals(MARKER, 0, MARKER.length, data, 0, MARKER.length)) {
            return new VersionedValue(NONE, NONE, data == null ? new byte[0] : data);
        }
        ByteBuffer in = ByteBuffer.wrap(data, MARKER.length, 32);
        UUID writeId = new UUID(in.getLong(), in.getLong());
        UUID previous = new UUID(in.getLong(), in.getLong());
        return new VersionedValue(writeId, previous, Arrays.copyOfRange(data, HEADER_BYTES, data.length));
    }
}
