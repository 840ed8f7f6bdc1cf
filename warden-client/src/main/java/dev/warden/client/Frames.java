package dev.warden.client;

import dev.warden.protocol.JuteWriter;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.Record;

/** Encodes client→server frames: length prefix, RequestHeader, body. */
final class Frames {
    /** Pings never change, so one encoded copy serves every connection. */
    static final byte[] PING = request(OpCode.XID_PING, OpCode.PING, null);

    private Frames() {
    }

    /** The first frame of a connection: a bare record with no request header. */
    static byte[] handshake(Record connectRequest) {
        JuteWriter out = new JuteWriter(64);
        out.writeInt(0);
        connectRequest.writeTo(out);
        out.setInt(0, out.size() - 4);
        return out.toByteArray();
    }

    /** A whole frame; the xid may be a placeholder the outbox overwrites when it sends. */
    static byte[] request(int xid, int opCode, Record body) {
        JuteWriter out = new JuteWriter(64);
        out.writeInt(0);
        out.writeInt(xid);
        out.writeInt(opCode);
        if (body != null) {
            body.writeTo(out);
        }
        out.setInt(0, out.size() - 4);
        return out.toByteArray();
    }
}
