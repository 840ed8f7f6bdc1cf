package dev.warden.client;

import dev.warden.protocol.AuthPacket;
import dev.warden.protocol.OpCode;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The addAuth credentials a session offers on every connection, and the auth requests on the
 * wire waiting for their replies (the server answers them in order). Confined to the event loop.
 */
final class AuthCredentials {
    record Credential(AuthPacket packet, CompletableFuture<Void> result) {
    }

    private final SerialExecutor completions;
    private final ArrayDeque<Credential> awaitingReply = new ArrayDeque<>();
    private final List<Credential> offered = new ArrayList<>();

    AuthCredentials(SerialExecutor completions) {
        this.completions = completions;
    }

    /** Keeps the credential to offer on this connection (if the caller sends it) and every later one. */
    void add(Credential credential) {
        offered.add(credential);
    }

    /** Writes the credential's auth request; its reply completes the credential's result. */
    void send(Credential credential, Consumer<byte[]> write) {
        awaitingReply.add(credential);
        write.accept(Frames.request(OpCode.XID_AUTH, OpCode.AUTH, credential.packet()));
    }

    /** Offers every credential on a connection that just got its session. */
    void sendAll(Consumer<byte[]> write) {
        for (Credential credential : offered) {
            send(credential, write);
        }
    }

    /** The reply to the oldest auth request on the wire. */
    void onReply(int err) {
        Credential credential = awaitingReply.poll();
        if (credential == null) {
            return;
        }
        if (err == 0) {
            completions.execute(() -> credential.result().complete(null));
        } else {
            // The server closes the connection after a failed auth; do not offer it again.
            offered.remove(credential);
            WardenException failure = WardenException.of(err, null);
            completions.execute(() -> credential.result().completeExceptionally(failure));
        }
    }

    /** The connection is gone: the requests waiting for a reply fail with {@code cause}. */
    void failAwaitingReply(Supplier<WardenException> cause) {
        for (Credential credential : awaitingReply) {
            completions.execute(() -> credential.result().completeExceptionally(cause.get()));
        }
        awaitingReply.clear();
    }
}
