package dev.warden.server.peer;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * Cuts a large frame into parts for a link's socket: its length and first part, then one part
 * per write while the socket takes more. A link's writes run on the driver's thread, and a SNAP
 * of a large tree (55 MB for 300,000 znodes) handed to the socket whole was copied there in one
 * piece, which held every write of the leader for a quarter of a second; in parts, the link goes
 * on at each moment the socket can take more, between the driver's other work. The receiver sees
 * the same bytes. Not thread-safe: the link guards it.
 */
final class FrameParts {
    /** Frames up to this size go whole. */
    static final int PART_BYTES = 1 << 20;

    /** The array being written in parts (the frame's head, then its tail), or null; and how much of it has gone. */
    private byte[] piece;
    private int offset;
    /** The frame's tail, while its head is being written. */
    private byte[] after;

    /** The whole frame, or (a large one) its length and first part; {@link #next} gives the rest. */
    ByteBuf begin(OutboundFrame frame) {
        if (frame.length() <= PART_BYTES) {
            return frame.tail().length == 0 ? PeerWire.frame(frame.head())
                    : Unpooled.wrappedBuffer(lengthOf(frame), Unpooled.wrappedBuffer(frame.head()),
                            Unpooled.wrappedBuffer(frame.tail()));
        }
        piece = frame.head();
        offset = 0;
        after = frame.tail();
        return Unpooled.wrappedBuffer(lengthOf(frame), nextPart());
    }

    /** The next part of the frame under way; null when none is. */
    ByteBuf next() {
        return piece == null ? null : nextPart();
    }

    /** The connection is gone: what was left of the frame goes with it. */
    void clear() {
        piece = null;
        after = null;
    }

    private static ByteBuf lengthOf(OutboundFrame frame) {
        return Unpooled.buffer(PeerWire.LENGTH_BYTES, PeerWire.LENGTH_BYTES).writeInt(Math.toIntExact(frame.length()));
    }

    /** Up to {@link #PART_BYTES} of the current array (a part ends where the head does). */
    private ByteBuf nextPart() {
        int length = Math.min(PART_BYTES, piece.length - offset);
        ByteBuf part = Unpooled.wrappedBuffer(piece, offset, length);
        offset += length;
        if (offset == piece.length) {
            piece = after != null && after.length > 0 ? after : null;
            after = null;
            offset = 0;
        }
        return part;
    }
}
