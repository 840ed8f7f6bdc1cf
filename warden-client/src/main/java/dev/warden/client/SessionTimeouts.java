package dev.warden.client;

import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client's side of the session timeout, checked at each tick: ping a quiet connection, drop
 * a silent one, and give the session up once no server can have heard from it for a whole
 * timeout (or none was ever granted in time). Confined to the event loop.
 */
final class SessionTimeouts {
    private static final Logger LOG = LoggerFactory.getLogger(SessionDriver.class);

    /** What a tick asks of the driver. */
    enum Due { NOTHING, DROP_CONNECTION, PING, SESSION_EXPIRED, NO_SESSION }

    private final ClientConfig config;
    private final SessionGrant grant;
    private long startNanos;
    private long lastReceivedNanos;
    private long lastSentNanos;

    SessionTimeouts(ClientConfig config, SessionGrant grant) {
        this.config = config;
        this.grant = grant;
    }

    void started(long nowNanos) {
        startNanos = nowNanos;
    }

    void received(long nowNanos) {
        lastReceivedNanos = nowNanos;
    }

    void sent(long nowNanos) {
        lastSentNanos = nowNanos;
    }

    Due due(long now, boolean connected, boolean everConnected) {
        int negotiatedTimeoutMs = grant.negotiatedTimeoutMs();
        if (connected) {
            long silentMs = TimeUnit.NANOSECONDS.toMillis(now - lastReceivedNanos);
            if (silentMs > negotiatedTimeoutMs * 2L / 3) {
                LOG.debug("nothing received for {} ms, dropping the connection", silentMs);
                return Due.DROP_CONNECTION;
            }
            if (TimeUnit.NANOSECONDS.toMillis(now - lastSentNanos) >= negotiatedTimeoutMs / 3) {
                return Due.PING;
            }
        } else if (everConnected && !grant.seenReadWrite()) {
            // only read-only sessions so far, each known to its member alone: the ensemble holds
            // no session of this client to expire, so it keeps trying
            return Due.NOTHING;
        } else if (everConnected) {
            // No server has heard from us for a whole session timeout: the ensemble has expired
            // the session by now, so say so instead of waiting for a reconnect to learn it.
            if (TimeUnit.NANOSECONDS.toMillis(now - lastReceivedNanos) >= negotiatedTimeoutMs) {
                return Due.SESSION_EXPIRED;
            }
        } else if (TimeUnit.NANOSECONDS.toMillis(now - startNanos) >= config.sessionTimeoutMs()) {
            return Due.NO_SESSION;
        }
        return Due.NOTHING;
    }
}
