package dev.warden.sim;

import dev.warden.consensus.SnapshotData;
import java.nio.ByteBuffer;

/**
 * A snapshot file on a simulated disk: the production snapshot body, the zxid it had reached when
 * it was finished (the body's last eight bytes, as {@code StateSnapshots} writes them), and
 * whether it was damaged at rest (a checksum that no longer verifies).
 */
record SnapshotFile(SnapshotData data, long reachedZxid, boolean damaged) {
    /** A freshly written, sound file for {@code data}. */
    static SnapshotFile of(SnapshotData data) {
        return new SnapshotFile(data, reachedZxidOf(data), false);
    }

    long zxid() {
        return data.zxid();
    }

    String name() {
        return String.format("snapshot.%016x", data.zxid());
    }

    SnapshotFile damage() {
        return new SnapshotFile(data, reachedZxid, true);
    }

    /** The zxid a snapshot body says it had reached when finished: its last eight bytes. */
    static long reachedZxidOf(SnapshotData data) {
        byte[] body = data.bytes();
        if (body.length < Long.BYTES) {
            throw new IllegalArgumentException("snapshot at " + Long.toHexString(data.zxid()) + " has a body of "
                    + body.length + " bytes, too short to say where it ends");
        }
        return ByteBuffer.wrap(body, body.length - Long.BYTES, Long.BYTES).getLong();
    }
}
