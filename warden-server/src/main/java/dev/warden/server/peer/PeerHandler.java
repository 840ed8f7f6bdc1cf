package dev.warden.server.peer;

import dev.warden.consensus.ZabMessage;

/**
 * Receives what {@link PeerTransport} delivers. Called on the transport's single I/O thread, in
 * order, so implementations should only queue the event for the driver and return.
 */
public interface PeerHandler {
    /** A message from member {@code from}; messages from one member on one connection arrive in send order. */
    void onMessage(long from, ZabMessage message);

    /**
     * A connection to or from {@code peer} broke, or messages queued for it were dropped: some
     * messages sent to or received from it before this call may have been lost.
     */
    void onDisconnected(long peer);
}
