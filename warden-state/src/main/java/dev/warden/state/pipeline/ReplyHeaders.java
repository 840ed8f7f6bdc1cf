package dev.warden.state.pipeline;

import dev.warden.protocol.ConnectResponse;
import dev.warden.protocol.ErrorCode;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.ReplyHeader;

/** How every answer to a client is headed, whichever path (standalone, member, connection) answers it. */
public final class ReplyHeaders {
    private ReplyHeaders() {
    }

    /**
     * The header of the answer to {@code request}: a ping answers with the ping xid; the zxid is
     * the last applied one, except for UNIMPLEMENTED, which ZooKeeper answers with -1.
     */
    public static ReplyHeader of(Request request, ErrorCode error, long lastAppliedZxid) {
        int xid = request.opcode == OpCode.PING ? OpCode.XID_PING : request.xid;
        long zxid = error == ErrorCode.UNIMPLEMENTED ? -1 : lastAppliedZxid;
        return new ReplyHeader(xid, zxid, error.code());
    }

    /** The answer to a connect that got no session: all zeros, which the client reads as expired. */
    public static ConnectResponse noSession(boolean readOnly) {
        return new ConnectResponse(0, 0, 0, new byte[16], false, readOnly);
    }
}
