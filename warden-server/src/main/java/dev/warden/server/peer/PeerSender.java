package dev.warden.server.peer;

import dev.warden.consensus.Outbound;
import dev.warden.consensus.ZabMessage;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Optional;

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

    /** Where member {@code peerId}'s connection to this member's peer port comes from, while there is one. */
    default Optional<InetSocketAddress> connectedFrom(long peerId) {
        return Optional.empty();
    }

    /**
     * Closes this member's peer-port connections with member {@code peerId}, both ways: each side
     * is told the other went, as on any broken connection, and dials again.
     */
    default void dropConnections(long peerId) {
    }
}
