package dev.warden.server.net;

import dev.warden.server.security.SaslServers;
import javax.security.sasl.SaslException;
import javax.security.sasl.SaslServer;

/**
 * One connection's SASL exchange: the tokens of successive SASL requests go to one SASL
 * server until it completes. A request after completion is a replay and fails, as does any
 * token the mechanism rejects; the caller then refuses the connection.
 */
final class SaslExchange {
    private final SaslServers servers;
    private SaslServer server;
    private boolean complete;

    SaslExchange(SaslServers servers) {
        this.servers = servers;
    }

    /** The answer to the client's token; {@link #authorizedId()} is set once this completes the exchange. */
    byte[] step(byte[] token) throws SaslException {
        if (complete) {
            throw new SaslException("a SASL request after the exchange completed (replayed?)");
        }
        if (server == null) {
            server = servers.newServer();
        }
        try {
            byte[] answer = servers.evaluate(server, token == null ? new byte[0] : token);
            complete = server.isComplete();
            return answer;
        } catch (SaslException | RuntimeException e) {
            dispose();
            throw e instanceof SaslException sasl ? sasl : new SaslException(e.getMessage(), e);
        }
    }

    boolean complete() {
        return complete;
    }

    String authorizedId() {
        return complete ? server.getAuthorizationID() : null;
    }

    String mechanism() {
        return servers.mechanism();
    }

    void dispose() {
        if (server != null) {
            try {
                server.dispose();
            } catch (SaslException ignored) {
                // nothing more to release
            }
        }
    }
}
