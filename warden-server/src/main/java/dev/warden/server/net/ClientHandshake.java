package dev.warden.server.net;

import dev.warden.protocol.ConnectRequest;
import dev.warden.protocol.JuteReader;
import dev.warden.state.pipeline.ReplyHeaders;
import dev.warden.state.session.SessionTracker;
import java.security.SecureRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A connection's handshake: whether this server takes the client's session, and on which terms. */
final class ClientHandshake {
    /** The connection's logger: operators' log settings name ClientConnection for these lines. */
    private static final Logger log = LoggerFactory.getLogger(ClientConnection.class);
    private static final byte[] NO_PASSWORD = new byte[16];
    private static final SecureRandom PASSWORDS = new SecureRandom();

    private final ServerContext server;
    private final ClientConnection connection;

    ClientHandshake(ServerContext server, ClientConnection connection) {
        this.server = server;
        this.connection = connection;
    }

    /** Handles the client's first frame, a ConnectRequest: a session is created, re-attached, or refused. */
    void handshake(byte[] frame, int length) {
        boolean serving = server.pipeline().isServing();
        if (!serving && !server.pipeline().servesReadOnly()) {
            // As ZooKeeper does: a member that is not in sync with a leader takes no sessions
            // (four-letter words still get their answer).
            connection.closeNow();
            return;
        }
        if (!serving) {
            readOnlyHandshake(ConnectRequest.read(connection.reader(frame, length)));
            return;
        }
        if (!server.config().leaderServes() && "leader".equals(server.memberStatus().mode())) {
            // leaderServes=no: the leader keeps to coordination; clients connect to the others
            connection.closeNow();
            return;
        }
        JuteReader in = connection.reader(frame, length);
        ConnectRequest connect = ConnectRequest.read(in);
        server.stats().connectionRequest();
        long lastApplied = server.state().lastAppliedZxid();
        if (connect.lastZxidSeen() > lastApplied) {
            log.info("refusing session 0x{} from {}: client has seen zxid 0x{}, this server only 0x{}",
                    Long.toHexString(connect.sessionId()), connection.peer(),
                    Long.toHexString(connect.lastZxidSeen()), Long.toHexString(lastApplied));
            connection.closeNow();
            return;
        }
        int timeoutMs = Math.max(server.config().minSessionTimeoutMs(),
                Math.min(server.config().maxSessionTimeoutMs(), connect.timeOutMs()));
        boolean readOnlyPresent = connect.readOnlyPresent();
        connection.readOnlyBytePresent(readOnlyPresent);
        if (connect.sessionId() == 0) {
            connection.awaitNewSession(timeoutMs, readOnlyPresent);
            return;
        }
        SessionTracker sessions = server.stateMachine().sessions();
        SessionTracker.Session session = sessions.get(connect.sessionId());
        if (session == null || session.isClosing() || !session.passwordMatches(connect.passwd())
                || !sessions.reattach(connect.sessionId(), timeoutMs)) {
            log.info("session 0x{} from {} is expired or invalid", Long.toHexString(connect.sessionId()),
                    connection.peer());
            connection.sendReply(null, ReplyHeaders.noSession(readOnlyPresent));
            connection.closeAfterFlush();
            return;
        }
        server.pipeline().sessionAttached(connect.sessionId());
        connection.establish(connect.sessionId(), timeoutMs, session.password(), readOnlyPresent);
        connection.cancelHandshakeDeadline();
    }

    /**
     * A member cut off from its quorum, serving read-only sessions: it takes only clients that
     * asked for read-only. A new session gets an id and password of this member's alone, known to
     * no other member and written nowhere (a client that moves to a read-write member starts a
     * new session there, as ZooKeeper's client does). A client that already holds a session the
     * member's tree knows keeps it, read-only, and nothing about it changes here.
     */
    private void readOnlyHandshake(ConnectRequest connect) {
        connection.readOnlyBytePresent(connect.readOnlyPresent());
        if (!connect.readOnly()) {
            // debug, as the refusals of a member not serving are silent: clients retry this often
            log.debug("refusing session from {}: this member has no quorum and serves read-only sessions only, and"
                    + " the client did not ask for one", connection.peer());
            connection.closeNow();
            return;
        }
        server.stats().connectionRequest();
        long lastApplied = server.state().lastAppliedZxid();
        if (connect.lastZxidSeen() > lastApplied) {
            log.info("refusing read-only session from {}: client has seen zxid 0x{}, this server only 0x{}",
                    connection.peer(), Long.toHexString(connect.lastZxidSeen()), Long.toHexString(lastApplied));
            connection.closeNow();
            return;
        }
        connection.markReadOnlySession();
        if (!server.pipeline().servesReadOnly()) {
            connection.closeNow();
            return;
        }
        int timeoutMs = Math.max(server.config().minSessionTimeoutMs(),
                Math.min(server.config().maxSessionTimeoutMs(), connect.timeOutMs()));
        long id = connect.sessionId();
        byte[] password;
        if (id == 0) {
            id = server.stateMachine().sessions().newSessionId();
            password = new byte[NO_PASSWORD.length];
            PASSWORDS.nextBytes(password);
        } else {
            SessionTracker.Session session = server.stateMachine().sessions().get(id);
            if (session == null || session.isClosing() || !session.passwordMatches(connect.passwd())) {
                log.info("read-only session 0x{} from {} is expired or invalid", Long.toHexString(id),
                        connection.peer());
                connection.sendReply(null, ReplyHeaders.noSession(connection.readOnlyBytePresent()));
                connection.closeAfterFlush();
                return;
            }
            password = session.password();
        }
        log.info("read-only session 0x{} for {}", Long.toHexString(id), connection.peer());
        connection.establish(id, timeoutMs, password, connection.readOnlyBytePresent());
    }
}
