package dev.warden.server.net;

import dev.warden.protocol.AuthPacket;
import dev.warden.protocol.ErrorCode;
import dev.warden.protocol.GetSASLRequest;
import dev.warden.protocol.Id;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.ReplyHeader;
import dev.warden.protocol.RequestHeader;
import dev.warden.protocol.SetSASLResponse;
import dev.warden.state.auth.AuthIdentities;
import dev.warden.state.auth.Digests;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One connection's authentication: auth packets, its SASL exchange, and the schemes a server requires. */
final class ClientAuthentication {
    /** The connection's logger: operators' log settings name ClientConnection for these lines. */
    private static final Logger log = LoggerFactory.getLogger(ClientConnection.class);

    private final ServerContext server;
    private final ClientConnection connection;
    /** This connection's SASL exchange, from its first SASL request on. */
    private SaslExchange saslExchange;

    ClientAuthentication(ServerContext server, ClientConnection connection) {
        this.server = server;
        this.connection = connection;
    }

    /** Ends a SASL exchange still open when the connection goes. */
    void dispose() {
        if (saslExchange != null) {
            saslExchange.dispose();
        }
    }

    void authenticate(RequestHeader header, AuthPacket auth) {
        String scheme = auth.scheme();
        if ("digest".equals(scheme) && auth.auth() != null) {
            String credentials = new String(auth.auth(), StandardCharsets.UTF_8);
            String id = Digests.idFor(credentials);
            connection.identities().add(new Id("digest", id));
            String superDigest = server.config().superDigest();
            if (superDigest != null && superDigest.equals(id)) {
                connection.identities().add(new Id(AuthIdentities.SUPER_SCHEME, ""));
            }
            connection.sendReply(new ReplyHeader(header.xid(), 0, 0), null);
        } else if ("ip".equals(scheme)) {
            connection.sendReply(new ReplyHeader(header.xid(), 0, 0), null);
        } else {
            server.stats().authFailed();
            log.info("closing session 0x{}: authentication failed for scheme {}", Long.toHexString(connection.sessionId()),
                    scheme);
            connection.sendReply(new ReplyHeader(header.xid(), 0, ErrorCode.AUTH_FAILED.code()), null);
            connection.closeAfterFlush();
        }
    }

    /**
     * One step of a SASL exchange, answered at once (outside the pipeline) as in ZooKeeper. A
     * failed step is answered AUTHFAILED (SESSIONCLOSEDREQUIRESASLAUTH where SASL is required)
     * and the connection closed, unless allowSaslFailedClients lets it go on unauthenticated.
     */
    void sasl(RequestHeader header, GetSASLRequest request) {
        var security = server.config().security();
        if (server.sasl() == null) {
            log.warn("refusing SASL from {} (session 0x{}): SASL is not configured on this server (no JAAS file"
                    + " with a {} section)", connection.peer(), Long.toHexString(connection.sessionId()),
                    security.sasl().serverSection());
            saslFailed(header, false);
            return;
        }
        if (saslExchange == null) {
            saslExchange = new SaslExchange(server.sasl());
        }
        byte[] answer;
        try {
            answer = saslExchange.step(request.token());
        } catch (javax.security.sasl.SaslException failed) {
            // the mechanism's reason names no secret: a wrong password reads "digest response format violation"
            log.warn("SASL {} authentication failed for {} (session 0x{}): {}", saslExchange.mechanism(),
                    connection.peer(), Long.toHexString(connection.sessionId()), failed.getMessage()
                            + (failed.getCause() != null ? " (" + failed.getCause().getMessage() + ")" : ""));
            saslFailed(header, security.sasl().allowFailedClients());
            return;
        }
        if (saslExchange.complete()) {
            String id = saslExchange.authorizedId();
            connection.identities().add(new Id("sasl", id));
            if (id.equals(security.sasl().superUser())) {
                connection.identities().add(new Id(AuthIdentities.SUPER_SCHEME, id));
            }
            log.info("session 0x{} from {} authenticated with SASL {} as {}", Long.toHexString(connection.sessionId()),
                    connection.peer(), saslExchange.mechanism(), id);
            saslExchange.dispose();
        }
        connection.sendReply(new ReplyHeader(header.xid(), 0, 0), new SetSASLResponse(answer));
    }

    private void saslFailed(RequestHeader header, boolean mayGoOn) {
        var enforcement = server.config().security().enforcement();
        boolean required = enforcement.active() && enforcement.requiredSchemes().contains("sasl");
        if (mayGoOn && !required) {
            log.warn("keeping session 0x{} unauthenticated after its failed SASL exchange (allowSaslFailedClients)",
                    Long.toHexString(connection.sessionId()));
            connection.sendReply(new ReplyHeader(header.xid(), 0, ErrorCode.AUTH_FAILED.code()), null);
            return;
        }
        ErrorCode error = required ? ErrorCode.SESSION_CLOSED_REQUIRE_SASL_AUTH : ErrorCode.AUTH_FAILED;
        connection.sendReply(new ReplyHeader(header.xid(), 0, error.code()), null);
        connection.closeAfterFlush();
    }

    /**
     * enforce.auth.enabled / sessionRequireClientSASLAuth: a request from a connection holding
     * no identity of a required scheme is answered SESSIONCLOSEDREQUIRESASLAUTH and the
     * connection closed.
     */
    static boolean authenticatedEnough(ServerContext server, ClientConnection connection, RequestHeader header) {
        var enforcement = server.config().security().enforcement();
        if (!enforcement.active()) {
            return true;
        }
        for (Id id : connection.identities().ids()) {
            if (enforcement.requiredSchemes().contains(id.scheme())) {
                return true;
            }
        }
        log.warn("closing session 0x{} from {}: {} request before authenticating with one of {}",
                Long.toHexString(connection.sessionId()), connection.peer(), OpCode.name(header.type()),
                enforcement.requiredSchemes());
        connection.sendReply(new ReplyHeader(header.xid(), 0, ErrorCode.SESSION_CLOSED_REQUIRE_SASL_AUTH.code()), null);
        connection.closeAfterFlush();
        return false;
    }
}
