package dev.warden.sim;

import java.nio.ByteBuffer;

/**
 * A client write as it travels: as a request (member to leader, in AppData), as a txn (the
 * proposal payload) and as a refusal (leader to member, in AppData, when a CAS cannot apply).
 */
public record Command(Kind kind, long origin, long clientId, long requestId, long expectedVersion, long value) {
    public enum Kind { CAS, CREATE, REFUSED }

    private static final int SIZE = 1 + 5 * Long.BYTES;

    public byte[] encode() {
        return ByteBuffer.allocate(SIZE).put((byte) kind.ordinal()).putLong(origin).putLong(clientId)
                .putLong(requestId).putLong(expectedVersion).putLong(value).array();
    }

    public static Command decode(byte[] bytes) {
        if (bytes.length != SIZE) {
            throw new IllegalArgumentException("not a command: " + bytes.length + " bytes");
        }
        ByteBuffer in = ByteBuffer.wrap(bytes);
        int kind = in.get();
        if (kind < 0 || kind >= Kind.values().length) {
            throw new IllegalArgumentException("unknown command kind " + kind);
        }
        return new Command(Kind.values()[kind], in.getLong(), in.getLong(), in.getLong(), in.getLong(), in.getLong());
    }
}
