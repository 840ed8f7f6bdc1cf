package dev.warden.server.peer;

import dev.warden.protocol.JuteReader;
import dev.warden.protocol.JuteWriter;
import dev.warden.protocol.ProtocolException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * The framing between members: every frame is an int length then that many bytes. The first
 * frame on a connection is the hello (magic, protocol version, sender id, flags); every later one
 * is a {@link dev.warden.consensus.ZabCodec} message, except that a hello with {@link #SASL} set
 * is followed by a SASL exchange: the dialler sends tokens, the member dialled answers each with
 * an {@link AuthReply} (a status byte, then a token or a reason), and Zab messages flow only once
 * it is over.
 */
public final class PeerWire {
    public static final int MAGIC = 0x5741_5a42; // "WAZB"
    /**
     * Members of different versions refuse each other at the hello, with a clear reason, instead
     * of dropping the link on the first message the other cannot read (version 2 added
     * LeaderDurable, version 3 FollowerInfo's resyncing flag, version 4 the hello's flags and SASL,
     * version 5 the configuration version in votes and the configurations in NEWLEADER, version 6
     * the Relay message of observer masters).
     */
    public static final int VERSION = 6;
    public static final int HELLO_BYTES = 4 + 4 + 8 + 4;
    public static final int LENGTH_BYTES = 4;
    /** The hello's flag: the dialler authenticates with SASL before it sends messages (version 4). */
    public static final int SASL = 1;
    /**
     * Largest SASL token either side takes: DIGEST-MD5 tokens are a few hundred bytes, a Kerberos
     * ticket a few KiB. Until a member has authenticated, this is all it can make the other hold.
     */
    public static final int MAX_AUTH_FRAME_BYTES = 64 << 10;

    /** A decoded hello. */
    public record Hello(long sender, int flags) {
        boolean wantsSasl() {
            return (flags & SASL) != 0;
        }
    }

    /** What the member dialled answers to each SASL token. */
    enum AuthStatus {
        /** Another round: a challenge token follows. */
        CHALLENGE,
        /** Authenticated; the mechanism's last token follows (may be empty). */
        SUCCESS,
        /** Refused; a reason follows (UTF-8, naming no credential). */
        FAILED,
        /** This member does not authenticate members (quorum.auth.enableSasl off); a reason follows. */
        NOT_OFFERED
    }

    public record AuthReply(AuthStatus status, byte[] payload) {
        String reason() {
            return new String(payload, java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    private PeerWire() {
    }

    public static ByteBuf hello(long myId, int flags) {
        return frame(new JuteWriter(HELLO_BYTES).writeInt(MAGIC).writeInt(VERSION).writeLong(myId).writeInt(flags)
                .toByteArray());
    }

    /** A hello frame's body; bad magic, version or size is a protocol error. */
    public static Hello readHello(byte[] body) {
        if (body.length != HELLO_BYTES) {
            throw new ProtocolException("hello of " + body.length + " bytes, expected " + HELLO_BYTES);
        }
        JuteReader in = new JuteReader(body);
        int magic = in.readInt();
        if (magic != MAGIC) {
            throw new ProtocolException("bad magic 0x" + Integer.toHexString(magic) + " (not a Warden member?)");
        }
        int version = in.readInt();
        if (version != VERSION) {
            throw new ProtocolException("peer protocol version " + version + ", this member speaks " + VERSION);
        }
        long sender = in.readLong();
        int flags = in.readInt();
        if ((flags & ~SASL) != 0) {
            throw new ProtocolException("hello flags 0x" + Integer.toHexString(flags) + " name nothing this member knows");
        }
        return new Hello(sender, flags);
    }

    /** The member dialled's answer to a SASL token. */
    public static ByteBuf authReply(AuthStatus status, byte[] payload) {
        byte[] body = new byte[1 + payload.length];
        body[0] = (byte) status.ordinal();
        System.arraycopy(payload, 0, body, 1, payload.length);
        return frame(body);
    }

    public static AuthReply readAuthReply(byte[] body) {
        if (body.length < 1 || body[0] < 0 || body[0] >= AuthStatus.values().length) {
            throw new ProtocolException("not a SASL answer (" + body.length + " bytes)");
        }
        return new AuthReply(AuthStatus.values()[body[0]], java.util.Arrays.copyOfRange(body, 1, body.length));
    }

    /** Length prefix and body without copying the body. */
    public static ByteBuf frame(byte[] body) {
        ByteBuf length = Unpooled.buffer(LENGTH_BYTES, LENGTH_BYTES).writeInt(body.length);
        return Unpooled.wrappedBuffer(length, Unpooled.wrappedBuffer(body));
    }
}
