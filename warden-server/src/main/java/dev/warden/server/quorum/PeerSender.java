package dev.warden.server.quorum;

import dev.warden.consensus.ZabMessage;

/** Sends a message to another member; delivery is best effort (the core tolerates loss). */
public interface PeerSender {
    void send(long peerId, ZabMessage message);
}
