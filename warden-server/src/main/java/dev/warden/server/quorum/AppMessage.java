package dev.warden.server.quorum;

import dev.warden.protocol.Id;
import dev.warden.protocol.JuteReader;
import dev.warden.protocol.JuteWriter;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.ProtocolException;
import dev.warden.protocol.Record;
import dev.warden.server.net.RequestBodies;
import dev.warden.state.pipeline.RestoreRequest;
import java.util.ArrayList;
import java.util.List;

/**
 * What members tell each other on top of Zab (carried in {@code ZabMessage.AppData}): client
 * requests forwarded to the leader, the leader's error replies to them, session activity,
 * session moves and the leader's tree digests. Encoded with jute primitives, one type byte first.
 */
public sealed interface AppMessage {
    byte FORWARD = 1;
    byte FAILED = 2;
    byte ACTIVITY = 3;
    byte ATTACH = 4;
    byte DIGEST = 5;
    byte DIGEST_REPORT = 6;
    byte RESYNC = 7;

    /**
     * A client request a member could not answer itself. {@code body} is the request body the
     * client sent, decoded (null for createSession, whose body is empty on the wire); {@code
     * address} and {@code identities} are the connection's when the request was read, for ACL
     * checks. For createSession, {@code timeoutMs} and {@code password} are what the member chose.
     * The leader's own members' requests reach its prep as they are, never encoded.
     */
    record Forward(long memberId, long sessionId, int xid, int opcode, Record body, String address,
                   List<Id> identities, int timeoutMs, byte[] password) implements AppMessage {
    }

    /**
     * A forward whose body the leader could not decode: its prep refuses it MARSHALLINGERROR.
     * Only {@link #decode} makes one; it is never sent.
     */
    record UnreadableForward(long memberId, long sessionId, int xid) implements AppMessage {
    }

    /**
     * The leader's prep refused a forwarded request. The member delivers it once it has applied
     * {@code afterZxid} (everything the leader prepared before), which keeps the session's order.
     * {@code multiErrors} is the per-op result list of a failed multi, else empty.
     */
    record Failed(long sessionId, int xid, long afterZxid, int errorCode, List<Integer> multiErrors)
            implements AppMessage {
    }

    /** Sessions whose clients were heard from recently, for the leader's expiry decisions. */
    record Activity(List<Long> sessionIds) implements AppMessage {
    }

    /** A client re-attached its session at {@code memberId}: requests through other members now get SESSIONMOVED. */
    record Attach(long memberId, long sessionId) implements AppMessage {
    }

    /** Leader to members: its replicated tree digest right after it applied {@code zxid}. */
    record Digest(long zxid, long digest) implements AppMessage {
    }

    /** Member to leader: this member's replicated tree digest right after it applied {@code zxid}. */
    record DigestReport(long zxid, long digest) implements AppMessage {
    }

    /**
     * Leader to a member: a quorum of voters had {@code digest} after {@code zxid} and this
     * member's differs; its state diverged and it must take a copy of the leader's history.
     */
    record Resync(long zxid, long digest) implements AppMessage {
    }

    /**
     * Writes a forward in one pass: the body goes straight into the message, where its length is
     * filled in after it, instead of being encoded into an array of its own and copied. A null
     * body is an empty one.
     */
    private static void writeForward(JuteWriter out, Forward f) {
        out.writeByte(FORWARD).writeLong(f.memberId()).writeLong(f.sessionId()).writeInt(f.xid()).writeInt(f.opcode());
        int lengthAt = out.size();
        out.writeInt(0);
        if (f.body() != null) {
            f.body().writeTo(out);
        }
        out.setInt(lengthAt, out.size() - lengthAt - 4);
        writeForwardTail(out, f.address(), f.identities(), f.timeoutMs(), f.password());
    }

    private static void writeForwardTail(JuteWriter out, String address, List<Id> identities, int timeoutMs,
                                         byte[] password) {
        out.writeString(address).writeInt(identities.size());
        for (Id id : identities) {
            out.writeString(id.scheme()).writeString(id.id());
        }
        out.writeInt(timeoutMs).writeBuffer(password);
    }

    static byte[] encode(AppMessage message) {
        JuteWriter out = new JuteWriter(sizeHintBytes(message));
        if (message instanceof Forward f) {
            writeForward(out, f);
        } else if (message instanceof Failed f) {
            out.writeByte(FAILED).writeLong(f.sessionId()).writeInt(f.xid()).writeLong(f.afterZxid())
                    .writeInt(f.errorCode()).writeInt(f.multiErrors().size());
            for (int code : f.multiErrors()) {
                out.writeInt(code);
            }
        } else if (message instanceof Activity a) {
            out.writeByte(ACTIVITY).writeInt(a.sessionIds().size());
            for (long id : a.sessionIds()) {
                out.writeLong(id);
            }
        } else if (message instanceof Digest d) {
            out.writeByte(DIGEST).writeLong(d.zxid()).writeLong(d.digest());
        } else if (message instanceof DigestReport d) {
            out.writeByte(DIGEST_REPORT).writeLong(d.zxid()).writeLong(d.digest());
        } else if (message instanceof Resync r) {
            out.writeByte(RESYNC).writeLong(r.zxid()).writeLong(r.digest());
        } else if (message instanceof Attach a) {
            out.writeByte(ATTACH).writeLong(a.memberId()).writeLong(a.sessionId());
        } else {
            throw new IllegalArgumentException("not sent between members: " + message);
        }
        return out.toExactArray();
    }

    /** Encoded size of a forward (exact for ASCII strings), so its 1 KiB body is copied once. */
    static int sizeHintBytes(AppMessage message) {
        if (!(message instanceof Forward f)) {
            return 64;
        }
        int bytes = 1 + 8 + 8 + 4 + 4 + 4 + (f.body() == null ? 0 : f.body().sizeHintBytes())
                + JuteWriter.stringSizeHint(f.address())
                + 4 + 4 + JuteWriter.bufferSizeHint(f.password());
        for (Id id : f.identities()) {
            bytes += JuteWriter.stringSizeHint(id.scheme()) + JuteWriter.stringSizeHint(id.id());
        }
        return bytes;
    }

    /** Decodes a payload; a malformed one is a {@link ProtocolException}. */
    static AppMessage decode(byte[] payload) {
        JuteReader in = new JuteReader(payload, 0, payload.length, Integer.MAX_VALUE);
        byte type = in.readByte();
        AppMessage message = switch (type) {
            case FORWARD -> {
                long memberId = in.readLong();
                long sessionId = in.readLong();
                int xid = in.readInt();
                int opcode = in.readInt();
                byte[] body = in.readBuffer();
                String address = in.readString();
                int count = boundedCount(in.readInt(), in);
                List<Id> ids = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    ids.add(new Id(in.readString(), in.readString()));
                }
                int timeoutMs = in.readInt();
                byte[] password = in.readBuffer();
                if (opcode == OpCode.CREATE_SESSION) {
                    yield new Forward(memberId, sessionId, xid, opcode, null, address, ids, timeoutMs, password);
                }
                try {
                    Record decoded = decodeBody(opcode, body);
                    yield new Forward(memberId, sessionId, xid, opcode, decoded, address, ids, timeoutMs, password);
                } catch (ProtocolException e) {
                    yield new UnreadableForward(memberId, sessionId, xid);
                }
            }
            case FAILED -> {
                long sessionId = in.readLong();
                int xid = in.readInt();
                long afterZxid = in.readLong();
                int code = in.readInt();
                int count = boundedCount(in.readInt(), in);
                List<Integer> codes = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    codes.add(in.readInt());
                }
                yield new Failed(sessionId, xid, afterZxid, code, codes);
            }
            case ACTIVITY -> {
                int count = boundedCount(in.readInt(), in);
                List<Long> ids = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    ids.add(in.readLong());
                }
                yield new Activity(ids);
            }
            case ATTACH -> new Attach(in.readLong(), in.readLong());
            case DIGEST -> new Digest(in.readLong(), in.readLong());
            case DIGEST_REPORT -> new DigestReport(in.readLong(), in.readLong());
            case RESYNC -> new Resync(in.readLong(), in.readLong());
            default -> throw new ProtocolException("unknown member message type " + type);
        };
        in.expectEnd("member message");
        return message;
    }

    private static Record decodeBody(int opcode, byte[] body) {
        JuteReader in = new JuteReader(body, 0, body.length, Integer.MAX_VALUE);
        return opcode == RestoreRequest.OPCODE ? RestoreRequest.read(in) : RequestBodies.decode(opcode, in);
    }

    private static int boundedCount(int count, JuteReader in) {
        if (count < 0 || count > in.remaining()) {
            throw new ProtocolException("bad element count " + count);
        }
        return count;
    }
}
