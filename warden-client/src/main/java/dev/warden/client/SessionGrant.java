package dev.warden.client;

import dev.warden.protocol.ConnectRequest;
import dev.warden.protocol.ConnectResponse;

/**
 * The session as the servers granted it (id, password, negotiated timeout, read-only or not),
 * from which each new connection's ConnectRequest is made. Confined to the event loop, but for
 * {@link #sessionIdSnapshot()}, which any thread may read.
 */
final class SessionGrant {
    private final ClientConfig config;
    private volatile long sessionIdSnapshot;
    private long sessionId;
    private byte[] password = new byte[16];
    private int negotiatedTimeoutMs;
    /**
     * True once a read-write server granted a session: until then every attempt asks for a new
     * session (id 0), as a read-only member's session is known to it alone, as in ZooKeeper's client.
     */
    private boolean seenReadWrite;
    /** The current session is read-only (canBeReadOnly, a member cut off from its quorum). */
    private boolean readOnlySession;

    SessionGrant(ClientConfig config) {
        this.config = config;
        this.negotiatedTimeoutMs = config.sessionTimeoutMs();
    }

    /**
     * The handshake of a new connection: re-attach the session, or ask for a new one while only
     * read-only sessions were granted.
     */
    ConnectRequest connectRequest(long lastZxid) {
        return seenReadWrite || !config.canBeReadOnly()
                ? new ConnectRequest(0, lastZxid, config.sessionTimeoutMs(), sessionId, password,
                        config.canBeReadOnly(), true)
                : new ConnectRequest(0, lastZxid, config.sessionTimeoutMs(), 0, new byte[16], true, true);
    }

    /** Takes the server's answer to the handshake; false if it says the session expired. */
    boolean accept(ConnectResponse response) {
        if (response.timeOutMs() <= 0) {
            return false;
        }
        readOnlySession = config.canBeReadOnly() && response.readOnly();
        sessionId = response.sessionId();
        sessionIdSnapshot = sessionId;
        password = response.passwd();
        negotiatedTimeoutMs = response.timeOutMs();
        return true;
    }

    long sessionId() {
        return sessionId;
    }

    /** The session id, for any thread. */
    long sessionIdSnapshot() {
        return sessionIdSnapshot;
    }

    int negotiatedTimeoutMs() {
        return negotiatedTimeoutMs;
    }

    boolean readOnly() {
        return readOnlySession;
    }

    boolean seenReadWrite() {
        return seenReadWrite;
    }

    /** A read-write server granted the session. */
    void readWriteGranted() {
        seenReadWrite = true;
    }
}
