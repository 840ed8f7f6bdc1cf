package dev.warden.server.peer;

import dev.warden.consensus.ZabCodec;
import dev.warden.consensus.ZabMessage;

/**
 * A frame for a peer as its link writes it: the bytes of {@code head} then those of
 * {@code tail}. A SNAP's frame is its few bytes of head and the snapshot's own bytes, so the
 * snapshot is not copied into a frame on the driver thread (55 MB for 300,000 znodes); every
 * other message is encoded whole into the head.
 */
record OutboundFrame(byte[] head, byte[] tail) {
    private static final byte[] NONE = new byte[0];

    static OutboundFrame of(ZabMessage message) {
        if (message instanceof ZabMessage.Snap snap) {
            return new OutboundFrame(ZabCodec.snapHead(snap), snap.snapshot());
        }
        return new OutboundFrame(ZabCodec.encode(message), NONE);
    }

    /** The frame's length in bytes (what its length prefix says). */
    long length() {
        return (long) head.length + tail.length;
    }
}
