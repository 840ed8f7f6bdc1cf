package dev.warden.sim;

import java.nio.ByteBuffer;

/**
 * A client request on its way from the member that took it to the leader's prep (in AppData),
 * as the sim's stand-in for a forwarded wire request. {@code origin} is the member to answer;
 * {@code xid} is the client's request number, which the transaction carries as its cxid.
 */
record SimRequest(Kind kind, long origin, long sessionId, int xid, int expectedVersion, long value, byte[] password) {
    /**
     * CAS = setData on /reg with a version; CREATE = a sequential create under /seq; the SETUPs
     * create those parents; EPHEMERAL = the session's ephemeral node; CLOSE_SESSION ends the
     * session (deleting its ephemeral).
     */
    enum Kind { CREATE_SESSION, SETUP_REGISTER, SETUP_SEQUENCE, CAS, CREATE, EPHEMERAL, CLOSE_SESSION }

    static final String REGISTER = "/reg";
    static final String SEQUENCE_PARENT = "/seq";
    static final String SEQUENCE_PREFIX = "/seq/n-";

    /** The ephemeral node a session may own. */
    static String ephemeralPath(long sessionId) {
        return "/eph-" + Long.toHexString(sessionId);
    }

    private static final byte TAG_REQUEST = 1;
    private static final byte TAG_REFUSAL = 2;

    SimRequest {
        password = password == null ? new byte[0] : password.clone();
    }

    /** The leader's answer to a request prep rejected: the error code it would send the member. */
    record Refusal(long sessionId, int xid, int errorCode) {
    }

    byte[] encode() {
        return ByteBuffer.allocate(1 + 1 + 8 + 8 + 4 + 4 + 8 + 4 + password.length).put(TAG_REQUEST)
                .put((byte) kind.ordinal()).putLong(origin).putLong(sessionId).putInt(xid).putInt(expectedVersion)
                .putLong(value).putInt(password.length).put(password).array();
    }

    static byte[] encode(Refusal refusal) {
        return ByteBuffer.allocate(1 + 8 + 4 + 4).put(TAG_REFUSAL).putLong(refusal.sessionId()).putInt(refusal.xid())
                .putInt(refusal.errorCode()).array();
    }

    /** Decodes AppData: a {@link SimRequest} or a {@link Refusal}. */
    static Object decode(byte[] bytes) {
        ByteBuffer in = ByteBuffer.wrap(bytes);
        if (bytes.length == 0) {
            throw new IllegalArgumentException("empty sim message");
        }
        byte tag = in.get();
        if (tag == TAG_REFUSAL) {
            return new Refusal(in.getLong(), in.getInt(), in.getInt());
        }
        if (tag != TAG_REQUEST) {
            throw new IllegalArgumentException("unknown sim message tag " + tag);
        }
        int kind = in.get();
        if (kind < 0 || kind >= Kind.values().length) {
            throw new IllegalArgumentException("unknown request kind " + kind);
        }
        long origin = in.getLong();
        long sessionId = in.getLong();
        int xid = in.getInt();
        int expectedVersion = in.getInt();
        long value = in.getLong();
        byte[] password = new byte[in.getInt()];
        in.get(password);
        return new SimRequest(Kind.values()[kind], origin, sessionId, xid, expectedVersion, value, password);
    }

    static byte[] valueBytes(long value) {
        return ByteBuffer.allocate(Long.BYTES).putLong(value).array();
    }

    static long valueOf(byte[] data) {
        return data == null || data.length != Long.BYTES ? 0 : ByteBuffer.wrap(data).getLong();
    }
}
