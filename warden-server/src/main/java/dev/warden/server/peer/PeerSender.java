package dev.warden.server.peer;

import dev.warden.consensus.Outbound;
import dev.warden.consensus.ZabMessage;
import java.util.List;

/** Sends a message to another member; delivery is best effort (the core tolerates loss). */
public interface PeerSender {
    void send(long peerId, ZabMessage message);

    /**
     * Sends each message in order. A transport may encode a message once for a run of equal
     * consecutive messages (the leader's proposals and commits go to every follower alike).
     */
    default void sendAll(List<Outbound> messages) {
        for (Outbound outbound : messages) {
            send(outbound.to(), outbound.message());
        }
    }
}
