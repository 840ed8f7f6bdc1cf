package dev.warden.client;

import dev.warden.protocol.ErrorCode;
import dev.warden.protocol.GetSASLRequest;
import dev.warden.protocol.JuteReader;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.SetSASLResponse;
import io.netty.channel.Channel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection's SASL exchange, step by step: each token the mechanism makes goes to the
 * server, each token the server answers goes back to the mechanism, until the mechanism
 * completes (the session is ready) or fails (the client stops). Confined to the event loop.
 */
final class SaslLogin {
    private static final Logger LOG = LoggerFactory.getLogger(SessionDriver.class);

    private final SessionDriver driver;
    private final ClientSaslExchange exchange;
    /** The connection being authenticated: a step that ends after it closed is dropped. */
    private final Channel attempt;
    private final long sessionId;

    SaslLogin(SessionDriver driver, ClientSaslExchange exchange, Channel attempt, long sessionId) {
        this.driver = driver;
        this.exchange = exchange;
        this.attempt = attempt;
        this.sessionId = sessionId;
    }

    void start() {
        exchange.start(this::onStep);
    }

    /** A mechanism step finished (on the loop): send its token, or end the exchange. */
    private void onStep(byte[] token, String failure) {
        if (!driver.authenticating(attempt)) {
            return; // that connection is gone; the next one authenticates anew
        }
        if (failure != null) {
            failed("SASL " + exchange.mechanism() + " failed in this client: " + failure);
            return;
        }
        if (token == null) {
            if (exchange.complete()) {
                done();
            } else {
                failed("SASL " + exchange.mechanism() + " stopped before it completed");
            }
            return;
        }
        driver.sendNow(Frames.request(SessionDriver.XID_SASL, OpCode.SASL, new GetSASLRequest(token)));
    }

    /** The server's reply to the last token sent. */
    void onReply(int err, JuteReader body) {
        if (err != 0) {
            failed("the server refused the SASL " + exchange.mechanism() + " authentication ("
                    + ErrorCode.of(err) + ")");
            return;
        }
        byte[] serverToken = SetSASLResponse.read(body).token();
        if (exchange.complete()) {
            done();
            return;
        }
        exchange.answer(serverToken, this::onStep);
    }

    /** The connection closed during the exchange. */
    void dispose() {
        exchange.dispose();
    }

    private void done() {
        LOG.debug("session 0x{} authenticated with SASL {}", Long.toHexString(sessionId), exchange.mechanism());
        exchange.dispose();
        driver.saslAuthenticated();
    }

    /** As in ZooKeeper, a refused SASL exchange ends the client: retrying the same credentials cannot help. */
    private void failed(String reason) {
        LOG.warn("{}: the client stops (AUTH_FAILED)", reason);
        driver.saslRefused(new WardenException(ErrorCode.AUTH_FAILED, null, reason));
    }
}
