package dev.warden.server.quorum;

import dev.warden.consensus.Outbound;
import dev.warden.consensus.ZabMessage;
import dev.warden.server.peer.PeerSender;
import java.util.List;

/** A peer sender bound after it is handed out (the transport needs the driver, and the driver sends through the transport); drops what is sent before. */
final class LateBoundPeerSender implements PeerSender {
    private volatile PeerSender sender;

    /** From now on, messages go to {@code sender}. */
    void bind(PeerSender sender) {
        this.sender = sender;
    }

    @Override
    public void send(long to, ZabMessage message) {
        PeerSender current = sender;
        if (current != null) {
            current.send(to, message);
        }
    }

    @Override
    public java.util.Optional<java.net.InetSocketAddress> connectedFrom(long peerId) {
        PeerSender current = sender;
        return current != null ? current.connectedFrom(peerId) : java.util.Optional.empty();
    }

    @Override
    public void dropConnections(long peerId) {
        PeerSender current = sender;
        if (current != null) {
            current.dropConnections(peerId);
        }
    }

    @Override
    public void sendAll(List<Outbound> messages) {
        PeerSender current = sender;
        if (current != null) {
            current.sendAll(messages);
        }
    }
}
