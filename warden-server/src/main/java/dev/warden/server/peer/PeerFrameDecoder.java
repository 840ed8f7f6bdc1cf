package dev.warden.server.peer;

import dev.warden.protocol.ProtocolException;
import dev.warden.server.net.TlsSniffer;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;

/**
 * Splits an accepted peer connection's bytes into frames (an int length, then that many bytes),
 * emitted as retained slices that the next handler releases. Until {@link #helloAccepted} the
 * only frame it takes is one of exactly {@link PeerWire#HELLO_BYTES}: whoever connects is not
 * yet known to be a member, so a length field announcing anything else is refused as soon as
 * its four bytes are in, and a stranger can make the port hold no more than one hello's worth.
 * Only then does the limit rise to {@code maxFrameBytes}, which a snapshot for a follower needs.
 *
 * <p>It emits one frame per decode call: the base class passes each on before decoding the
 * next, so the next handler has judged the hello before any later frame's length is checked.
 * A refused length throws {@link ProtocolException} (it reaches {@code exceptionCaught}), after
 * dropping what is buffered; anything arriving after that, or after the connection was closed
 * for any other reason, is dropped unread.
 */
final class PeerFrameDecoder extends ByteToMessageDecoder {
    private final int maxFrameBytes;
    private boolean helloAccepted;
    /** Between a hello asking for SASL and the end of the exchange: tokens up to {@link PeerWire#MAX_AUTH_FRAME_BYTES}. */
    private boolean authenticating;
    private boolean refused;

    PeerFrameDecoder(int maxFrameBytes) {
        this.maxFrameBytes = maxFrameBytes;
    }

    /** The hello asked for a SASL exchange: the frames until it ends are tokens of bounded size. */
    void authenticating() {
        authenticating = true;
    }

    /** The next handler accepted the member: later frames may be as large as {@code maxFrameBytes}. */
    void helloAccepted() {
        authenticating = false;
        helloAccepted = true;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (refused || !ctx.channel().isActive()) {
            in.skipBytes(in.readableBytes());
            return;
        }
        if (in.readableBytes() < PeerWire.LENGTH_BYTES) {
            return;
        }
        int length = in.getInt(in.readerIndex());
        boolean bad = helloAccepted ? length < 0 || length > maxFrameBytes
                : authenticating ? length < 0 || length > PeerWire.MAX_AUTH_FRAME_BYTES
                : length != PeerWire.HELLO_BYTES;
        if (bad) {
            refused = true;
            boolean tls = !helloAccepted && !authenticating && TlsSniffer.startsTlsHandshake(in);
            in.skipBytes(in.readableBytes());
            throw new ProtocolException(helloAccepted
                    ? "frame length " + length + " outside 0.." + maxFrameBytes
                    : authenticating ? "a SASL token of " + length + " bytes, outside 0.." + PeerWire.MAX_AUTH_FRAME_BYTES
                    : tls ? "a TLS handshake (first bytes 0x16 0x03) on a port that takes plaintext only: the"
                            + " dialling member has sslQuorum=true; set portUnification=true on this member"
                            + " first (docs/SECURITY.md, switching an ensemble to TLS)"
                    : "first frame announces " + length + " bytes, a hello is " + PeerWire.HELLO_BYTES);
        }
        if (in.readableBytes() < PeerWire.LENGTH_BYTES + length) {
            return;
        }
        in.skipBytes(PeerWire.LENGTH_BYTES);
        out.add(in.readRetainedSlice(length));
    }
}
