package dev.warden.server.quorum;

import dev.warden.protocol.JuteReader;
import dev.warden.protocol.JuteWriter;
import dev.warden.protocol.ProtocolException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * The framing between members: every frame is an int length then that many bytes. The first
 * frame on a connection is the hello (magic, protocol version, sender id); every later one is a
 * {@link dev.warden.consensus.ZabCodec} message.
 */
final class PeerWire {
    static final int MAGIC = 0x5741_5a42; // "WAZB"
    /**
     * Members of different versions refuse each other at the hello, with a clear reason, instead
     * of dropping the link on the first message the other cannot read (version 2 added
     * LeaderDurable, version 3 FollowerInfo's resyncing flag, version 4 the configuration version in
     * votes and the configurations in NEWLEADER).
     */
    static final int VERSION = 4;
    static final int HELLO_BYTES = 4 + 4 + 8;
    static final int LENGTH_BYTES = 4;

    private PeerWire() {
    }

    static ByteBuf hello(long myId) {
        return frame(new JuteWriter(HELLO_BYTES).writeInt(MAGIC).writeInt(VERSION).writeLong(myId).toByteArray());
    }

    /** The sender id in a hello frame's body; bad magic, version or size is a protocol error. */
    static long readHello(byte[] body) {
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
        return in.readLong();
    }

    /** Length prefix and body without copying the body. */
    static ByteBuf frame(byte[] body) {
        ByteBuf length = Unpooled.buffer(LENGTH_BYTES, LENGTH_BYTES).writeInt(body.length);
        return Unpooled.wrappedBuffer(length, Unpooled.wrappedBuffer(body));
    }
}
