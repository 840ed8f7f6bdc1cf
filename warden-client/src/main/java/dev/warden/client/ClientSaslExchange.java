package dev.warden.client;

import dev.warden.protocol.sasl.SaslCredentials;
import io.netty.channel.EventLoop;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.function.BiConsumer;
import javax.security.sasl.SaslClient;
import javax.security.sasl.SaslException;

/**
 * The SASL exchange of one connection, client side: the first token, then an answer to each
 * server token until the mechanism is complete. Mechanism steps run off the I/O thread (a GSSAPI
 * step may ask the KDC for a ticket) and their results come back on it. Not thread-safe: the
 * driver calls it on its event loop, one step at a time.
 */
final class ClientSaslExchange {
    /** A step's outcome: the token to send (null: nothing more to send) or the failure. */
    interface Then extends BiConsumer<byte[], String> {
    }

    private interface Step {
        byte[] run() throws SaslException;
    }

    private final SaslCredentials credentials;
    private final String host;
    private final EventLoop loop;
    private final Executor steps;
    private volatile SaslClient client;

    ClientSaslExchange(SaslCredentials credentials, String host, EventLoop loop) {
        this(credentials, host, loop, ForkJoinPool.commonPool());
    }

    ClientSaslExchange(SaslCredentials credentials, String host, EventLoop loop, Executor steps) {
        this.credentials = credentials;
        this.host = host;
        this.loop = loop;
        this.steps = steps;
    }

    String mechanism() {
        return credentials.mechanism();
    }

    /** Makes the mechanism and its first token. */
    void start(Then then) {
        run(() -> {
            client = credentials.newClient(host);
            return credentials.firstToken(client);
        }, then);
    }

    /** Whether the mechanism has finished (the server proved itself where the mechanism can). */
    boolean complete() {
        SaslClient c = client;
        return c != null && c.isComplete();
    }

    /** Answers the server's token; a null answer means the mechanism has nothing more to say. */
    void answer(byte[] serverToken, Then then) {
        byte[] token = serverToken == null ? new byte[0] : serverToken;
        run(() -> credentials.evaluate(client, token), then);
    }

    void dispose() {
        SaslClient c = client;
        if (c != null) {
            try {
                c.dispose();
            } catch (SaslException ignored) {
                // nothing more to release
            }
        }
    }

    private void run(Step step, Then then) {
        CompletableFuture.runAsync(() -> {
            byte[] token;
            try {
                token = step.run();
            } catch (SaslException | RuntimeException e) {
                String reason = e.getMessage() + (e.getCause() != null && e.getCause().getMessage() != null
                        ? " (" + e.getCause().getMessage() + ")" : "");
                loop.execute(() -> then.accept(null, reason));
                return;
            }
            loop.execute(() -> then.accept(token, null));
        }, steps);
    }
}
