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

    /** The frame being written in parts, or null; and how much of it has gone. */
    private byte[] frame;
    private int offset;

    /** The whole frame, or (a large one) its length and first part; {@link #next} gives the rest. */
    ByteBuf begin(byte[] body) {
        if (body.length <= PART_BYTES) {
            return PeerWire.frame(body);
        }
        frame = body;
        offset = 0;
        ByteBuf length = Unpooled.buffer(PeerWire.LENGTH_BYTES, PeerWire.LENGTH_BYTES).writeInt(body.length);
        return Unpooled.wrappedBuffer(length, nextPart());
    }

    /** The next part of the frame under way; null when none is. */
    ByteBuf next() {
        return frame == null ? null : nextPart();
    }

    /** The connection is gone: what was left of the frame goes with it. */
    void clear() {
        frame = null;
    }

    private ByteBuf nextPart() {
        int length = Math.min(PART_BYTES, frame.length - offset);
        ByteBuf part = Unpooled.wrappedBuffer(frame, offset, length);
        offset += length;
        if (offset == frame.length) {
            frame = null;
        }
        return part;
    }
}
