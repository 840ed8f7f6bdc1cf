package dev.warden.sim;

import dev.warden.protocol.CreateMode;
import dev.warden.protocol.CreateRequest;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.Perms;
import dev.warden.protocol.Record;
import dev.warden.protocol.SetDataRequest;
import dev.warden.server.quorum.AppMessage;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * A simulated client's request, as the client means it. It reaches the leader as the server's
 * own forwarded request ({@link #forward}: an {@code AppMessage.Forward} with the request body in
 * jute, as a member forwards a client's write), and the leader's production prep validates it.
 * {@code origin} is the member the client talks to; {@code xid} is the client's request number,
 * which the transaction carries as its cxid.
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
    /** The address a forwarded request carries for ACL checks (every node here is open). */
    private static final String CLIENT_ADDRESS = "127.0.0.1:0";

    /** The ephemeral node a session may own. */
    static String ephemeralPath(long sessionId) {
        return "/eph-" + Long.toHexString(sessionId);
    }

    SimRequest {
        password = password == null ? new byte[0] : password.clone();
    }

    /** The leader's answer to a request prep rejected: the error code the member delivers. */
    record Refusal(long sessionId, int xid, int errorCode) {
        static Refusal of(AppMessage.Failed failed) {
            return new Refusal(failed.sessionId(), failed.xid(), failed.errorCode());
        }
    }

    /** The request as a member forwards it to the leader (encoded only if it leaves the member). */
    AppMessage.Forward forward() {
        return switch (kind) {
            case CREATE_SESSION -> new AppMessage.Forward(origin, sessionId, xid, OpCode.CREATE_SESSION, null,
                    CLIENT_ADDRESS, List.of(), SimClient.SESSION_TIMEOUT_MS, password);
            case SETUP_REGISTER -> create(REGISTER, CreateMode.PERSISTENT);
            case SETUP_SEQUENCE -> create(SEQUENCE_PARENT, CreateMode.PERSISTENT);
            case CREATE -> create(SEQUENCE_PREFIX, CreateMode.PERSISTENT_SEQUENTIAL);
            case EPHEMERAL -> create(ephemeralPath(sessionId), CreateMode.EPHEMERAL);
            case CLOSE_SESSION -> forward(OpCode.CLOSE_SESSION, null);
            case CAS -> forward(OpCode.SET_DATA, new SetDataRequest(REGISTER, valueBytes(value), expectedVersion));
        };
    }

    private AppMessage.Forward create(String path, CreateMode mode) {
        return forward(OpCode.CREATE, new CreateRequest(path, valueBytes(value), Perms.OPEN_ACL_UNSAFE, mode.flags()));
    }

    private AppMessage.Forward forward(int opcode, Record body) {
        return new AppMessage.Forward(origin, sessionId, xid, opcode, body,
                CLIENT_ADDRESS, List.of(), 0, new byte[0]);
    }

    static byte[] valueBytes(long value) {
        return ByteBuffer.allocate(Long.BYTES).putLong(value).array();
    }

    static long valueOf(byte[] data) {
        return data == null || data.length != Long.BYTES ? 0 : ByteBuffer.wrap(data).getLong();
    }
}
