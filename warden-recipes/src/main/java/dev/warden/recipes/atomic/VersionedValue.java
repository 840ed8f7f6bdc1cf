package dev.warden.recipes.atomic;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/**
 * What an atomic value's node holds: a marker, the ids of the last writes that put a value
 * there (newest first, at most {@link #HISTORY}), and the value. The write at node version
 * {@code v} is {@code recentWrites[currentVersion - v]}, so a writer whose reply was lost can
 * tell whether its write was applied as long as fewer than {@link #HISTORY} writes followed it;
 * without this a retried increment could count twice. Data without the marker (written by
 * another tool) is read as a bare value with no history.
 */
record VersionedValue(List<UUID> recentWrites, byte[] value) {
    /** Writes remembered: more than the writes a leader change can let through before a writer looks. */
    static final int HISTORY = 32;
    private static final byte[] MARKER = {'W', 'a', 'v', '2'};

    VersionedValue {
        recentWrites = List.copyOf(recentWrites.subList(0, Math.min(HISTORY, recentWrites.size())));
    }

    /** The value written by {@code writeId} on top of this one. */
    VersionedValue next(UUID writeId, byte[] newValue) {
        List<UUID> writes = new ArrayList<>(HISTORY);
        writes.add(writeId);
        writes.addAll(recentWrites);
        return new VersionedValue(writes, newValue);
    }

    byte[] encode() {
        ByteBuffer out = ByteBuffer.allocate(MARKER.length + 1 + 16 * recentWrites.size() + value.length);
        out.put(MARKER).put((byte) recentWrites.size());
        for (UUID id : recentWrites) {
            out.putLong(id.getMostSignificantBits()).putLong(id.getLeastSignificantBits());
        }
        return out.put(value).array();
    }

    static VersionedValue decode(byte[] data) {
        if (data == null || data.length < MARKER.length + 1 || !Arrays.equals(MARKER, 0, MARKER.length, data, 0, MARKER.length)) {
            return new VersionedValue(List.of(), data == null ? new byte[0] : data);
        }
        int count = data[MARKER.length] & 0xff;
        int header = MARKER.length + 1 + 16 * count;
        if (count > HISTORY || data.length < header) {
            return new VersionedValue(List.of(), data);
        }
        ByteBuffer in = ByteBuffer.wrap(data, MARKER.length + 1, 16 * count);
        List<UUID> writes = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            writes.add(new UUID(in.getLong(), in.getLong()));
        }
        return new VersionedValue(writes, Arrays.copyOfRange(data, header, data.length));
    }
}
