package dev.warden.server.peer;

import dev.warden.server.config.QuorumMember;
import dev.warden.server.peer.PeerHandler;
import dev.warden.server.peer.PeerOptions;
import dev.warden.server.peer.PeerTransport;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The transports and sockets a peer-transport test opened, closed together after it. */
final class TransportsUnderTest implements AutoCloseable {
    private final List<AutoCloseable> open = new ArrayList<>();

    /** Starts a transport for member {@code id} and keeps it to close. */
    PeerTransport start(long id, Map<Long, QuorumMember> members, PeerHandler handler, PeerOptions options)
            throws InterruptedException {
        PeerTransport transport = new PeerTransport(id, members, handler, options);
        open.add(transport);
        transport.start();
        return transport;
    }

    /** Keeps {@code resource} (a socket, say) to close with the transports. */
    void add(AutoCloseable resource) {
        open.add(resource);
    }

    @Override
    public void close() throws Exception {
        for (AutoCloseable resource : open) {
            resource.close();
        }
    }
}
