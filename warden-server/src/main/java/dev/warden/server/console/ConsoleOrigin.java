package dev.warden.server.console;

import dev.warden.protocol.Record;
import dev.warden.protocol.ReplyHeader;
import dev.warden.state.auth.AuthIdentities;
import dev.warden.state.pipeline.Origin;
import dev.warden.state.pipeline.Request;
import dev.warden.state.watch.WatchRecipient;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The console's stand-in for a client connection: requests it submits carry the logged-in
 * identities, so the server's own ACL checks decide them, and their replies come back here by
 * xid. It sets no watches.
 */
final class ConsoleOrigin implements Origin {
    /** A reply: the header's error code and, when it is 0, the body. */
    record Answer(int err, Record body) {
    }

    private static final WatchRecipient NO_WATCHES = (eventType, path, zxid, acl) -> {
    };

    private final AuthIdentities identities;
    private final CompletableFuture<Long> session = new CompletableFuture<>();
    private final Map<Integer, CompletableFuture<Answer>> waiting = new ConcurrentHashMap<>();

    ConsoleOrigin(AuthIdentities identities) {
        this.identities = identities;
    }

    /** Completes with the session id once the session is established; fails if it is refused. */
    CompletableFuture<Long> session() {
        return session;
    }

    /** The reply to the request with this xid, once it is sent. Register before submitting. */
    CompletableFuture<Answer> expect(int xid) {
        return waiting.computeIfAbsent(xid, x -> new CompletableFuture<>());
    }

    @Override
    public AuthIdentities identities() {
        return identities;
    }

    @Override
    public void send(ReplyHeader header, Record body) {
        if (header == null) {
            // a refused createSession answers with a bare ConnectResponse and no header
            session.completeExceptionally(new IllegalStateException("the server refused a session"));
            return;
        }
        CompletableFuture<Answer> answer = waiting.remove(header.xid());
        if (answer != null) {
            answer.complete(new Answer(header.err(), body));
        }
    }

    @Override
    public void requestDone(Request request) {
        // the reply, sent just before, is what the writer waits for
    }

    @Override
    public void closeAfterFlush() {
        session.completeExceptionally(new IllegalStateException("the server closed the session"));
        waiting.values().forEach(f -> f.completeExceptionally(new IllegalStateException("the session was closed")));
    }

    @Override
    public WatchRecipient watcher() {
        return NO_WATCHES;
    }

    @Override
    public void sessionCreated(long sessionId, int timeoutMs, byte[] password) {
        session.complete(sessionId);
    }
}
