package dev.warden.server.peer;

import dev.warden.server.security.SaslServers;
import io.netty.util.concurrent.EventExecutor;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import javax.security.sasl.SaslException;
import javax.security.sasl.SaslServer;

/**
 * The SASL exchange of one accepted connection whose hello asked for it: the member dialled is
 * the SASL server. Each token is evaluated on the transport's SASL thread, never on the I/O
 * thread (that thread is the member's driver, and a GSSAPI step may wait on a KDC or a slow
 * keytab read); the outcome is handed back on the I/O thread. One token at a time: the dialler
 * waits for each answer, so a second token before it is a protocol error, as is a token after
 * the exchange ended or an exchange of more than {@link #MAX_ROUNDS} tokens.
 */
final class InboundAuth {
    /** DIGEST-MD5 takes two tokens, GSSAPI three or four. */
    static final int MAX_ROUNDS = 10;

    /**
     * What one token led to.
     *
     * @param reply    the frame to send back: a challenge, the final token, or the reason of a failure
     * @param identity the authenticated name once {@code reply} is SUCCESS, else null
     */
    record Outcome(PeerWire.AuthStatus status, byte[] reply, String identity) {
        boolean failed() {
            return status == PeerWire.AuthStatus.FAILED;
        }
    }

    private final SaslServers servers;
    private final Executor steps;
    /** Made and used on the SASL thread; read on the I/O thread only to dispose of it. */
    private volatile SaslServer server;
    private int rounds;
    private boolean stepRunning;
    private boolean over;

    InboundAuth(SaslServers servers, Executor steps) {
        this.servers = servers;
        this.steps = steps;
    }

    String mechanism() {
        return servers.mechanism();
    }

    /**
     * Evaluates {@code token} off the I/O thread and gives the outcome to {@code done} on
     * {@code loop}. Called on the I/O thread.
     */
    void step(byte[] token, EventExecutor loop, Consumer<Outcome> done) {
        if (over || stepRunning || ++rounds > MAX_ROUNDS) {
            String why = over ? "a SASL token after the exchange ended (replayed?)"
                    : stepRunning ? "a second SASL token before the answer to the first"
                    : "more than " + MAX_ROUNDS + " SASL tokens";
            over = true;
            done.accept(failure(why));
            return;
        }
        stepRunning = true;
        try {
            steps.execute(() -> {
                Outcome outcome = evaluate(token);
                loop.execute(() -> {
                    stepRunning = false;
                    over |= outcome.status() != PeerWire.AuthStatus.CHALLENGE;
                    done.accept(outcome);
                });
            });
        } catch (RejectedExecutionException closing) {
            stepRunning = false;
            over = true;
            done.accept(failure("the member is shutting down"));
        }
    }

    /** SASL thread. */
    private Outcome evaluate(byte[] token) {
        try {
            if (server == null) {
                server = servers.newServer();
            }
            byte[] answer = servers.evaluate(server, token);
            byte[] reply = answer == null ? new byte[0] : answer;
            if (!server.isComplete()) {
                return new Outcome(PeerWire.AuthStatus.CHALLENGE, reply, null);
            }
            return new Outcome(PeerWire.AuthStatus.SUCCESS, reply, server.getAuthorizationID());
        } catch (SaslException | RuntimeException e) {
            return failure(reason(e));
        }
    }

    private static Outcome failure(String reason) {
        return new Outcome(PeerWire.AuthStatus.FAILED, reason.getBytes(java.nio.charset.StandardCharsets.UTF_8), null);
    }

    /** The mechanism's message and its causes' (a wrong password, a ticket for another service), no credential. */
    static String reason(Throwable e) {
        StringBuilder reasons = new StringBuilder(String.valueOf(e.getMessage()));
        Throwable inner = e;
        while (inner.getCause() != null && inner.getCause() != inner) {
            inner = inner.getCause();
            if (inner.getMessage() != null && reasons.indexOf(inner.getMessage()) < 0) {
                reasons.append(": ").append(inner.getMessage());
            }
        }
        return reasons.toString();
    }

    /** Releases the mechanism's state; called on the I/O thread when the connection ends. */
    void dispose() {
        over = true;
        SaslServer current = server;
        if (current != null) {
            try {
                steps.execute(() -> {
                    try {
                        current.dispose();
                    } catch (SaslException ignored) {
                        // nothing more to release
                    }
                });
            } catch (RejectedExecutionException closed) {
                // the transport is closing; the mechanism's state goes with it
            }
        }
    }
}
