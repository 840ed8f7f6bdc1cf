package dev.warden.client;

import dev.warden.protocol.ErrorCode;
import dev.warden.protocol.JuteReader;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.ReplyHeader;
import dev.warden.protocol.WatcherEvent;
import io.netty.channel.Channel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes each reply on a session's connection by its xid: a watch notification, an auth or SASL
 * reply, the answer to setWatches, or the answer to the oldest request on the wire (the server
 * answers requests in order, so any other xid breaks the connection). On the event loop.
 */
final class ReplyRouter {
    private static final Logger LOG = LoggerFactory.getLogger(SessionDriver.class);

    private final SessionDriver driver;
    private final Outbox outbox;
    private final ClientMetrics metrics;
    private final SerialExecutor completions;
    private final NotificationRouter notifications;
    private final AuthCredentials credentials;

    ReplyRouter(SessionDriver driver, Outbox outbox, ClientMetrics metrics, SerialExecutor completions,
                NotificationRouter notifications, AuthCredentials credentials) {
        this.driver = driver;
        this.outbox = outbox;
        this.metrics = metrics;
        this.completions = completions;
        this.notifications = notifications;
        this.credentials = credentials;
    }

    void route(ReplyHeader header, JuteReader body, Channel connection) {
        switch (header.xid()) {
            case OpCode.XID_NOTIFICATION -> notifications.route(WatcherEvent.read(body), header.zxid());
            case OpCode.XID_PING -> { }
            case OpCode.XID_AUTH -> credentials.onReply(header.err());
            case SessionDriver.XID_SASL -> driver.onSaslReply(header.err(), body);
            case OpCode.XID_SET_WATCHES -> {
                if (header.err() != 0) {
                    LOG.warn("setWatches2 after reconnect failed with {}", ErrorCode.of(header.err()));
                }
            }
            default -> {
                int expectedXid = outbox.oldestPendingXid();
                Packet<?> packet = outbox.matchReply(header.xid());
                if (packet == null) {
                    LOG.warn("reply xid {} does not match the oldest request ({}); dropping the connection",
                            header.xid(), expectedXid);
                    connection.close();
                    return;
                }
                metrics.requestCompleted(System.nanoTime() - packet.submittedNanos);
                completions.execute(packet.onReply(header.err(), body));
                driver.drainWaiting();
            }
        }
    }
}
